package com.example.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The lab's {@code script}: one fixed Lua script per batch. Spring Data Redis sends
 * EVALSHA and loads the script itself the first time the server answers NOSCRIPT. Nothing
 * to configure.
 * <p>
 * Cost: one command and one round trip per batch; the script's own
 * {@code redis.call}s run inside the server, so they cost server CPU but no socket reads.
 * <p>
 * Catch: Redis runs nothing else while a script runs, so a long batch blocks every other
 * client; on a cluster every key of one call must be in one slot (share a hash tag).
 */
@Configuration(proxyBeanMethods = false)
public class ScriptRecipe {

	/** Keys per script call. */
	static final int BATCH_SIZE = 1000;

	/** SET KEYS[i] to ARGV[i]; answers how many it set. */
	static final RedisScript<Long> SET_ALL = RedisScript.of(
			"for i, key in ipairs(KEYS) do redis.call('SET', key, ARGV[i]) end return #KEYS", Long.class);

	/** GET each of KEYS; a missing key answers false, which arrives as null. */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<String>> GET_ALL = (RedisScript) RedisScript.of(
			"local values = {} for i, key in ipairs(KEYS) do values[i] = redis.call('GET', key) end return values",
			List.class);

	@Bean
	ScriptStore scriptStore(StringRedisTemplate redis) {
		return new ScriptStore(redis);
	}

	public static class ScriptStore {

		private final StringRedisTemplate redis;

		ScriptStore(StringRedisTemplate redis) {
			this.redis = redis;
		}

		public void setAll(Map<String, String> entries) {
			List<String> keys = new ArrayList<>(entries.keySet());
			for (int from = 0; from < keys.size(); from += BATCH_SIZE) {
				List<String> batch = keys.subList(from, Math.min(from + BATCH_SIZE, keys.size()));
				this.redis.execute(SET_ALL, batch, batch.stream().map(entries::get).toArray());
			}
		}

		public List<String> getAll(List<String> keys) {
			List<String> values = new ArrayList<>(keys.size());
			for (int from = 0; from < keys.size(); from += BATCH_SIZE) {
				List<String> batch = keys.subList(from, Math.min(from + BATCH_SIZE, keys.size()));
				values.addAll(this.redis.execute(GET_ALL, batch));
			}
			return values;
		}

	}

}
