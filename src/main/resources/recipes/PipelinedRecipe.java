package com.example.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection.PipeliningFlushPolicy;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lab's {@code pipelined-<flush policy>}: {@code executePipelined} once per batch, on
 * Spring Boot's Lettuce connection factory with the flush policy set. Spring Boot has no
 * property for the flush policy and its builder customizers cannot reach it, so a
 * {@code BeanPostProcessor} sets it on the auto-configured factory. Keep
 * {@code org.apache.commons:commons-pool2} on the classpath: Spring Boot then pools Lettuce
 * connections, and every {@code executePipelined} reuses one instead of opening a new TCP
 * connection.
 * <p>
 * Cost: one round trip per batch instead of one per command; the flush policy decides the
 * socket writes: one per command with {@code flushEachCommand()} (Spring Data Redis's
 * default), one per n commands with {@code buffered(n)}, one per batch with
 * {@code flushOnClose()}.
 * <p>
 * Catch: the flush policy is set on the connection factory, so it applies to every
 * pipeline of every template on that factory, not only to these; not atomic: a failing
 * command makes the call throw {@code RedisPipelineException} while the others have run;
 * Redis holds a whole batch's replies in memory until they are read, so keep batches near
 * 1,000-10,000 commands.
 */
@Configuration(proxyBeanMethods = false)
public class PipelinedRecipe {

	/** Commands per executePipelined call. */
	static final int BATCH_SIZE = 1000;

	@Bean
	static BeanPostProcessor pipeliningFlushPolicy() {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessBeforeInitialization(Object bean, String beanName) {
				if (bean instanceof LettuceConnectionFactory factory) {
					factory.setPipeliningFlushPolicy(PipeliningFlushPolicy.buffered(500));
				}
				return bean;
			}
		};
	}

	@Bean
	PipelinedStore pipelinedStore(StringRedisTemplate redis) {
		return new PipelinedStore(redis);
	}

	public static class PipelinedStore {

		private final StringRedisTemplate redis;

		PipelinedStore(StringRedisTemplate redis) {
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
