package com.example.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The lab's {@code async}: Lettuce's own async API, no Spring Data Redis in between, on a
 * connection of its own with auto-flush off: a batch of commands is buffered, written with
 * one {@code flushCommands()}, and its futures awaited together. The connection comes from
 * the {@code RedisClient} under Spring Boot's {@code LettuceConnectionFactory}, so it uses
 * the same {@code spring.data.redis.*} settings.
 * <p>
 * Cost: one round trip and one socket write per batch with the least client work per
 * command: the client library's own ceiling.
 * <p>
 * Catch: auto-flush off holds for the whole connection, so it must be this store's alone
 * and used by one thread at a time (hence {@code synchronized}); on a cluster use
 * {@code RedisClusterClient} and connect to every node before the first batch, or commands
 * for a node still connecting may never be flushed (Lettuce issues 1111, 2420).
 */
@Configuration(proxyBeanMethods = false)
public class AsyncRecipe {

	/** Commands per flush. */
	static final int BATCH_SIZE = 1000;

	static final Duration TIMEOUT = Duration.ofSeconds(60);

	@Bean
	AsyncStore asyncStore(LettuceConnectionFactory factory) {
		return new AsyncStore(factory);
	}

	public static class AsyncStore implements AutoCloseable {

		private final LettuceConnectionFactory factory;

		private StatefulRedisConnection<String, String> connection;

		AsyncStore(LettuceConnectionFactory factory) {
			this.factory = factory;
		}

		public synchronized void setAll(Map<String, String> entries) {
			RedisAsyncCommands<String, String> async = connection().async();
			List<RedisFuture<String>> batch = new ArrayList<>(BATCH_SIZE);
			for (Map.Entry<String, String> entry : entries.entrySet()) {
				batch.add(async.set(entry.getKey(), entry.getValue()));
				if (batch.size() == BATCH_SIZE) {
					flushAndAwait(batch);
					batch.clear();
				}
			}
			flushAndAwait(batch);
		}

		public synchronized List<String> getAll(List<String> keys) {
			RedisAsyncCommands<String, String> async = connection().async();
			List<String> values = new ArrayList<>(keys.size());
			for (int from = 0; from < keys.size(); from += BATCH_SIZE) {
				List<RedisFuture<String>> batch = new ArrayList<>(BATCH_SIZE);
				for (String key : keys.subList(from, Math.min(from + BATCH_SIZE, keys.size()))) {
					batch.add(async.get(key));
				}
				values.addAll(flushAndAwait(batch));
			}
			return values;
		}

		private List<String> flushAndAwait(List<RedisFuture<String>> batch) {
			this.connection.flushCommands();
			if (!LettuceFutures.awaitAll(TIMEOUT, batch.toArray(new RedisFuture[0]))) {
				throw new IllegalStateException("Redis did not answer " + batch.size() + " commands in " + TIMEOUT);
			}
			List<String> replies = new ArrayList<>(batch.size());
			for (RedisFuture<String> future : batch) {
				try {
					replies.add(future.get()); // done: awaitAll returned true
				}
				catch (InterruptedException | ExecutionException ex) {
					throw new IllegalStateException("A command failed: " + ex.getMessage(), ex);
				}
			}
			return replies;
		}

		private StatefulRedisConnection<String, String> connection() {
			if (this.connection == null) {
				this.connection = ((RedisClient) this.factory.getRequiredNativeClient()).connect();
				this.connection.setAutoFlushCommands(false);
			}
			return this.connection;
		}

		@Override
		public synchronized void close() {
			if (this.connection != null) {
				this.connection.close();
			}
		}

	}

}
