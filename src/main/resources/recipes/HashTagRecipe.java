package com.example.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lab's {@code multi-key-hashtag}: MSET and MGET per batch on keys that share one hash
 * tag, the part of the key between the first braces ({@code {user:42}:cart}, see
 * {@link #key}). Redis Cluster hashes only the tag, so every key of a tag is in one slot
 * and each batch stays one command on one node. Nothing to configure.
 * <p>
 * Cost: one command and one round trip per batch, on a cluster as on one server.
 * <p>
 * Catch: one master holds every key of a tag, so a busy tag is a hot node and the
 * cluster no longer spreads that data; use a tag per natural group (a user, a tenant), not
 * one for everything.
 */
@Configuration(proxyBeanMethods = false)
public class HashTagRecipe {

	/** Keys per MSET or MGET. */
	static final int BATCH_SIZE = 1000;

	/** A key in the slot of {@code tag}: {@code {tag}:name}. */
	public static String key(String tag, String name) {
		return "{" + tag + "}:" + name;
	}

	@Bean
	HashTagStore hashTagStore(StringRedisTemplate redis) {
		return new HashTagStore(redis);
	}

	/** Takes keys made with {@link HashTagRecipe#key}, all of one tag. */
	public static class HashTagStore {

		private final StringRedisTemplate redis;

		HashTagStore(StringRedisTemplate redis) {
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
