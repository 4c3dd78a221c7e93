package com.example.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The lab's {@code pipelined-by-node}: a cluster pipeline the way Jedis' and redis-py's
 * cluster pipelines send one. Each batch is grouped by the master that owns each key's
 * slot, each group is written to that master's own connection with auto-flush off and
 * flushed once, so every master works on its share at the same time, and the replies are
 * put back in the order of the keys. Spring Data Redis has no pipeline per node, so this
 * is Lettuce's API, reached through Spring Boot's own connection factory.
 * <p>
 * Cost: one round trip per master per batch, all masters at once, instead of one caller
 * thread handing every command to Lettuce's cluster router.
 * <p>
 * Catch: cluster only; a resharding or failover answers MOVED or ASK for the keys that
 * moved: call {@code client.refreshPartitions()} and send those again (the lab's runner
 * does, and counts them as {@code redirects}); not atomic.
 */
@Configuration(proxyBeanMethods = false)
public class NodeGroupedRecipe {

	/** Commands per batch, over all masters. */
	static final int BATCH_SIZE = 1000;

	@Bean
	NodeGroupedStore nodeGroupedStore(LettuceConnectionFactory factory) {
		return new NodeGroupedStore((RedisClusterClient) factory.getRequiredNativeClient());
	}

	public static class NodeGroupedStore implements DisposableBean {

		private static final Duration TIMEOUT = Duration.ofSeconds(60);

		private final StatefulRedisClusterConnection<String, String> connection;

		NodeGroupedStore(RedisClusterClient client) {
			this.connection = client.connect();
		}

		public synchronized void setAll(Map<String, String> entries) {
			List<String> keys = new ArrayList<>(entries.keySet());
			for (int from = 0; from < keys.size(); from += BATCH_SIZE) {
				List<String> batch = keys.subList(from, Math.min(from + BATCH_SIZE, keys.size()));
				send(batch, (node, key) -> node.async().set(key, entries.get(key)));
			}
		}

		public synchronized List<String> getAll(List<String> keys) {
			List<String> values = new ArrayList<>(keys.size());
			for (int from = 0; from < keys.size(); from += BATCH_SIZE) {
				List<String> batch = keys.subList(from, Math.min(from + BATCH_SIZE, keys.size()));
				for (RedisFuture<?> reply : send(batch, (node, key) -> node.async().get(key))) {
					values.add((String) get(reply));
				}
			}
			return values;
		}

		/** One pipeline per master, all flushed before any reply is awaited; replies in key order. */
		private List<RedisFuture<?>> send(List<String> batch, Command command) {
			Map<String, List<Integer>> byMaster = new LinkedHashMap<>();
			for (int i = 0; i < batch.size(); i++) {
				RedisClusterNode master = this.connection.getPartitions().getMasterBySlot(SlotHash.getSlot(batch.get(i)));
				byMaster.computeIfAbsent(master.getUri().getHost() + ":" + master.getUri().getPort(),
						(address) -> new ArrayList<>()).add(i);
			}
			RedisFuture<?>[] replies = new RedisFuture<?>[batch.size()];
			List<StatefulRedisConnection<String, String>> nodes = new ArrayList<>();
			for (Map.Entry<String, List<Integer>> group : byMaster.entrySet()) {
				String[] address = group.getKey().split(":");
				StatefulRedisConnection<String, String> node = this.connection.getConnection(address[0],
						Integer.parseInt(address[1]));
				node.setAutoFlushCommands(false);
				for (int i : group.getValue()) {
					replies[i] = command.send(node, batch.get(i));
				}
				nodes.add(node);
			}
			nodes.forEach(StatefulRedisConnection::flushCommands); // every master gets its share now
			LettuceFutures.awaitAll(TIMEOUT, replies);
			nodes.forEach((node) -> node.setAutoFlushCommands(true));
			return List.of(replies);
		}

		private static Object get(RedisFuture<?> reply) {
			try {
				return reply.get();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			catch (ExecutionException ex) {
				throw new IllegalStateException(ex.getCause());
			}
		}

		@Override
		public void destroy() {
			this.connection.close();
		}

		interface Command {

			RedisFuture<?> send(StatefulRedisConnection<String, String> node, String key);

		}

	}

}
