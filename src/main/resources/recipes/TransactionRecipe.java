package com.example.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lab's {@code transaction}: each batch in MULTI ... EXEC through
 * {@code StringRedisTemplate.execute(SessionCallback)}, the way Spring's reference
 * documentation writes a transaction: {@code multi()}, the commands and {@code exec()} all
 * on the one connection the session binds.
 * <p>
 * Cost: about one round trip per batch: Spring Data Redis sends the queued commands
 * without waiting for each QUEUED, and only {@code exec()} waits; MULTI and EXEC are two
 * more commands per batch for Redis.
 * <p>
 * Catch: atomic, so no other client's command runs inside a batch, which also means a
 * long batch holds every other client up while EXEC runs; there is no rollback (a
 * command that fails inside EXEC leaves the others applied), and on a cluster Spring Data
 * Redis runs no MULTI at all: a transaction must stay on one node.
 */
@Configuration(proxyBeanMethods = false)
public class TransactionRecipe {

	/** Commands per MULTI ... EXEC. */
	static final int BATCH_SIZE = 1000;

	@Bean
	TransactionStore transactionStore(StringRedisTemplate redis) {
		return new TransactionStore(redis);
	}

	public static class TransactionStore {

		private final StringRedisTemplate redis;

		TransactionStore(StringRedisTemplate redis) {
			this.redis = redis;
		}

		public void setAll(Map<String, String> entries) {
			List<Map.Entry<String, String>> all = new ArrayList<>(entries.entrySet());
			for (int from = 0; from < all.size(); from += BATCH_SIZE) {
				List<Map.Entry<String, String>> batch = all.subList(from, Math.min(from + BATCH_SIZE, all.size()));
				this.redis.execute(new SessionCallback<List<Object>>() {
					@Override
					@SuppressWarnings("unchecked")
					public <K, V> List<Object> execute(RedisOperations<K, V> operations) throws DataAccessException {
						RedisOperations<String, String> strings = (RedisOperations<String, String>) operations;
						strings.multi();
						for (Map.Entry<String, String> entry : batch) {
							strings.opsForValue().set(entry.getKey(), entry.getValue());
						}
						return strings.exec();
					}
				});
			}
		}

		public List<String> getAll(List<String> keys) {
			List<String> values = new ArrayList<>(keys.size());
			for (int from = 0; from < keys.size(); from += BATCH_SIZE) {
				List<String> batch = keys.subList(from, Math.min(from + BATCH_SIZE, keys.size()));
				List<Object> replies = this.redis.execute(new SessionCallback<List<Object>>() {
					@Override
					@SuppressWarnings("unchecked")
					public <K, V> List<Object> execute(RedisOperations<K, V> operations) throws DataAccessException {
						RedisOperations<String, String> strings = (RedisOperations<String, String>) operations;
						strings.multi();
						for (String key : batch) {
							strings.opsForValue().get(key); // answers null inside MULTI: the value comes from exec()
						}
						return strings.exec();
					}
				});
				replies.forEach((reply) -> values.add((String) reply));
			}
			return values;
		}

	}

}
