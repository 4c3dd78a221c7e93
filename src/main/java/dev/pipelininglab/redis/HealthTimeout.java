package dev.pipelininglab.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;

/**
 * Bounds the Redis health check by {@code lab.health.redis-timeout}. Lettuce's own
 * per-command timeout is off (see {@link RedisConfiguration}), so against a stuck server
 * the check would otherwise wait as long as the server stays stuck.
 */
final class HealthTimeout {

	private HealthTimeout() {
	}

	static Object bound(Object contributor, Duration timeout) {
		if (contributor instanceof ReactiveHealthIndicator reactive) {
			return (ReactiveHealthIndicator) () -> reactive.health()
				.timeout(timeout, Mono.fromSupplier(() -> timedOut(timeout)));
		}
		if (contributor instanceof HealthIndicator blocking) {
			return new Blocking(blocking, timeout);
		}
		return contributor;
	}

	private static Health timedOut(Duration timeout) {
		return Health.down().withDetail("error", "no answer within " + timeout.toMillis() + " ms").build();
	}

	/**
	 * A blocking check runs on its own thread, one at a time: while Redis stays stuck,
	 * probes are answered DOWN at once instead of piling up threads behind the first.
	 */
	private static final class Blocking implements HealthIndicator {

		private final HealthIndicator delegate;

		private final Duration timeout;

		private final AtomicReference<@Nullable CompletableFuture<Health>> running = new AtomicReference<>();

		private Blocking(HealthIndicator delegate, Duration timeout) {
			this.delegate = delegate;
			this.timeout = timeout;
		}

		@Override
		public Health health() {
			CompletableFuture<Health> check = this.running.get();
			if (check == null || check.isDone()) {
				check = CompletableFuture.supplyAsync(this.delegate::health);
				this.running.set(check);
			}
			try {
				return check.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (TimeoutException ex) {
				return timedOut(this.timeout);
			}
			catch (ExecutionException ex) {
				Throwable cause = ex.getCause();
				return Health.down().withException((cause != null) ? cause : ex).build();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return timedOut(this.timeout);
			}
		}

	}

}
