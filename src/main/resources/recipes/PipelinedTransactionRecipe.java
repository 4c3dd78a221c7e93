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
 * The lab's {@code pipelined-transaction}: MULTI, the batch and EXEC inside one
 * {@code executePipelined(SessionCallback)}, so the whole transaction travels in one round
 * trip; the callback returns null, and EXEC's replies arrive as a list inside the list
 * {@code executePipelined} returns (the QUEUED answers are dropped).
 * <p>
 * Cost: one round trip per batch, as a pipeline, plus MULTI and EXEC for Redis.
 * <p>
 * Catch: atomic like {@code transaction}, with the same lack of rollback; Spring Data
 * Redis's Jedis connection refuses MULTI inside a pipeline ("Cannot use Transaction while a
 * pipeline is open"), and on a cluster there is no MULTI.
 */
@Configuration(proxyBeanMethods = false)
public class PipelinedTransactionRecipe {

	/** Commands per pipelined MULTI ... EXEC. */
	static final int BATCH_SIZE = 1000;

	@Bean
	PipelinedTransactionStore pipelinedTransactionStore(StringRedisTemplate redis) {
		return new PipelinedTransactionStore(redis);
	}

	public static class PipelinedTransactionStore {

		private final StringRedisTemplate redis;

		PipelinedTransactionStore(StringRedisTemplate redis) {
			this.redis = redis;
		}

		public void setAll(Map<String, String> entries) {
			List<Map.Entry<String, String>> all = new ArrayList<>(entries.entrySet());
			for (int from = 0; from < all.size(); from += BATCH_SIZE) {
				List<Map.Entry<String, String>> batch = all.subList(from, Math.min(from + BATCH_SIZE, all.size()));
				this.redis.executePipelined(new SessionCallback<Object>() {
					@Override
					@SuppressWarnings("unchecked")
					public <K, V> Object execute(RedisOperations<K, V> operations) throws DataAccessException {
						RedisOperations<String, String> strings = (RedisOperations<String, String>) operations;
						strings.multi();
						for (Map.Entry<String, String> entry : batch) {
							strings.opsForValue().set(entry.getKey(), entry.getValue());
						}
						strings.exec();
						return null; // executePipelined requires it
					}
				});
			}
		}

		public List<String> getAll(List<String> keys) {
			List<String> values = new ArrayList<>(keys.size());
			for (int from = 0; from < keys.size(); from += BATCH_SIZE) {
				List<String> batch = keys.subList(from, Math.min(from + BATCH_SIZE, keys.size()));
				List<Object> replies = this.redis.executePipelined(new SessionCallback<Object>() {
					@Override
					@SuppressWarnings("unchecked")
					public <K, V> Object execute(RedisOperations<K, V> operations) throws DataAccessException {
						RedisOperations<String, String> strings = (RedisOperations<String, String>) operations;
						strings.multi();
						for (String key : batch) {
							strings.opsForValue().get(key);
						}
						strings.exec();
						return null;
					}
				});
				for (Object reply : replies) {
					if (reply instanceof List<?> exec) { // EXEC's replies, in order
						exec.forEach((value) -> values.add((String) value));
					}
					else {
						values.add((String) reply);
					}
				}
			}
			return values;
		}

	}

}
