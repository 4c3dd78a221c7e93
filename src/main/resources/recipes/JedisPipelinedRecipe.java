package com.example.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lab's {@code jedis-pipelined}: {@code executePipelined} once per batch on Spring
 * Data Redis's Jedis connector. Select it with {@code spring.data.redis.client-type=jedis}
 * and {@code redis.clients:jedis} on the classpath (Spring Boot manages its version); Jedis
 * always pools its connections. There is no flush policy to set.
 * <p>
 * Cost: one round trip per batch; Jedis writes the commands into an 8 KiB output buffer,
 * which goes to the socket each time it fills and once more when the pipeline closes.
 * <p>
 * Catch: not atomic, as with Lettuce; replies are read only when the pipeline closes, and
 * Spring Data Redis refuses pipelines on a Jedis cluster connection
 * ({@code InvalidDataAccessApiUsageException}), so on a cluster use Lettuce.
 */
@Configuration(proxyBeanMethods = false)
public class JedisPipelinedRecipe {

	/** Commands per executePipelined call. */
	static final int BATCH_SIZE = 1000;

	@Bean
	JedisPipelinedStore jedisPipelinedStore(StringRedisTemplate redis) {
		return new JedisPipelinedStore(redis);
	}

	public static class JedisPipelinedStore {

		private final StringRedisTemplate redis;

		JedisPipelinedStore(StringRedisTemplate redis) {
			this.redis = redis;
		}

		public void setAll(Map<String, String> entries) {
			List<Map.Entry<String, String>> all = new ArrayList<>(entries.entrySet());
			for (int from = 0; from < all.size(); from += BATCH_SIZE) {
				List<Map.Entry<String, String>> batch = all.subList(from, Math.min(from + BATCH_SIZE, all.size()));
				this.redis.executePipelined((RedisCallback<Object>) (RedisConnection connection) -> {
					for (Map.Entry<String, String> entry : batch) {
						connection.stringCommands().set(bytes(entry.getKey()), bytes(entry.getValue()));
					}
					return null; // the replies come back as the list executePipelined returns
				});
			}
		}

		public List<String> getAll(List<String> keys) {
			List<String> values = new ArrayList<>(keys.size());
			for (int from = 0; from < keys.size(); from += BATCH_SIZE) {
				List<String> batch = keys.subList(from, Math.min(from + BATCH_SIZE, keys.size()));
				List<Object> replies = this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
					for (String key : batch) {
						connection.stringCommands().get(bytes(key));
					}
					return null;
				});
				replies.forEach((reply) -> values.add((String) reply));
			}
			return values;
		}

		// Inside the callback the connection is the byte-level RedisConnection:
		// casting it to StringRedisConnection throws ClassCastException.
		private static byte[] bytes(String text) {
			return text.getBytes(StandardCharsets.UTF_8);
		}

	}

}
