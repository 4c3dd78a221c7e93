package com.example.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lab's {@code multi-key}: one MSET or MGET per batch through
 * {@code opsForValue().multiSet} and {@code multiGet}. Nothing to configure.
 * <p>
 * Cost: one command and one round trip per batch, the fewest socket reads and the least
 * server CPU per key of all recipes.
 * <p>
 * Catch: MSET cannot set an expiry: keys that must expire need a pipeline of
 * {@code SET key value EX seconds} (the pipelined recipe) or an EXPIRE per key after it;
 * on a cluster the keys of one batch span many slots, so the command is split (one per
 * slot or per key) and is no longer one atomic MSET; and only commands that take many
 * keys (MSET, MGET, DEL, HSET with many fields, SADD with many members...) can be batched
 * this way.
 */
@Configuration(proxyBeanMethods = false)
public class MultiKeyRecipe {

	/** Keys per MSET or MGET. */
	static final int BATCH_SIZE = 1000;

	@Bean
	MultiKeyStore multiKeyStore(StringRedisTemplate redis) {
		return new MultiKeyStore(redis);
	}

	public static class MultiKeyStore {

		private final StringRedisTemplate redis;

		MultiKeyStore(StringRedisTemplate redis) {
			this.redis = redis;
		}

		public void setAll(Map<String, String> entries) {
			Map<String, String> batch = new LinkedHashMap<>();
			for (Map.Entry<String, String> entry : entries.entrySet()) {
				batch.put(entry.getKey(), entry.getValue());
				if (batch.size() == BATCH_SIZE) {
					this.redis.opsForValue().multiSet(batch);
					batch.clear();
				}
			}
			if (!batch.isEmpty()) {
				this.redis.opsForValue().multiSet(batch);
			}
		}

		public List<String> getAll(List<String> keys) {
			List<String> values = new ArrayList<>(keys.size());
			for (int from = 0; from < keys.size(); from += BATCH_SIZE) {
				List<String> batch = keys.subList(from, Math.min(from + BATCH_SIZE, keys.size()));
				values.addAll(this.redis.opsForValue().multiGet(batch));
			}
			return values;
		}

	}

}
