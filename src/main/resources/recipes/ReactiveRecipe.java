package com.example.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import reactor.core.publisher.Flux;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * The lab's {@code reactive}: Spring Data Redis's reactive template, a batch as a
 * {@code Flux} of commands subscribed all at once ({@code flatMapSequential}), so they are
 * in flight together on the connection factory's one shared connection and their replies
 * come back in order. No {@code executePipelined}: Lettuce writes each command as it comes
 * and Netty coalesces what is queued. In a WebFlux service, return the {@code Mono} or
 * {@code Flux} instead of blocking as this recipe does for its callers.
 * <p>
 * Cost: about one round trip per batch, but a {@code Mono}, a Spring Data Redis command
 * wrapper and a socket flush for every command, so it stays well under
 * {@code executePipelined} with a buffering flush policy.
 * <p>
 * Catch: Lettuce only (Jedis has no reactive driver); not atomic; the concurrency of
 * {@code flatMapSequential} is the batch size, so an unbounded {@code Flux} would put every
 * command in flight at once.
 */
@Configuration(proxyBeanMethods = false)
public class ReactiveRecipe {

	/** Commands in flight at once. */
	static final int BATCH_SIZE = 1000;

	@Bean
	ReactiveStore reactiveStore(ReactiveRedisConnectionFactory factory) {
		// Spring Boot's reactive auto-configuration offers a ReactiveStringRedisTemplate bean too.
		return new ReactiveStore(new ReactiveStringRedisTemplate(factory));
	}

	public static class ReactiveStore {

		private final ReactiveStringRedisTemplate redis;

		ReactiveStore(ReactiveStringRedisTemplate redis) {
			this.redis = redis;
		}

		public void setAll(Map<String, String> entries) {
			Flux.fromIterable(entries.entrySet())
				.flatMapSequential((entry) -> this.redis.opsForValue().set(entry.getKey(), entry.getValue()),
						BATCH_SIZE)
				.then()
				.block();
		}

		public List<String> getAll(List<String> keys) {
			List<Optional<String>> replies = Flux.fromIterable(keys)
				.flatMapSequential((key) -> this.redis.opsForValue().get(key).map(Optional::of)
					.defaultIfEmpty(Optional.empty()), BATCH_SIZE) // a Flux carries no null
				.collectList()
				.block();
			List<String> values = new ArrayList<>(keys.size());
			replies.forEach((reply) -> values.add(reply.orElse(null)));
			return values;
		}

	}

}
