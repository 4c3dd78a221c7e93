package com.example.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lab's {@code loop}: one blocking call per command, on the {@code StringRedisTemplate}
 * Spring Boot configures from {@code spring.data.redis.*}. Nothing else to configure.
 * <p>
 * Cost: one round trip per command, so throughput is about 1 / RTT: some 10-20k SETs a
 * second on loopback, under 1,000 when Redis is 1 ms away.
 * <p>
 * Catch: none in correctness (each call is done when it returns), which is why it is the
 * baseline every other recipe is measured against.
 */
@Configuration(proxyBeanMethods = false)
public class LoopRecipe {

	@Bean
	LoopStore loopStore(StringRedisTemplate redis) {
		return new LoopStore(redis);
	}

	public static class LoopStore {

		private final StringRedisTemplate redis;

		LoopStore(StringRedisTemplate redis) {
			this.redis = redis;
		}

		public void setAll(Map<String, String> entries) {
			entries.forEach((key, value) -> this.redis.opsForValue().set(key, value));
		}

		public List<String> getAll(List<String> keys) {
			List<String> values = new ArrayList<>(keys.size());
			for (String key : keys) {
				values.add(this.redis.opsForValue().get(key));
			}
			return values;
		}

	}

}
