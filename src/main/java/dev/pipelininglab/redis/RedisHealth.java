package dev.pipelininglab.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code redis} health component, UP only while the lab can write: Boot's PING stayed
 * UP through a sentinel master outage and a cluster answering CLUSTERDOWN.
 */
@Component("redisHealthContributor")
class RedisHealth implements HealthIndicator {

	private final RedisDiagnosis diagnosis;

	private final Duration timeout;

	private final AtomicReference<@Nullable CompletableFuture<Health>> running = new AtomicReference<>();

	RedisHealth(RedisDiagnosis diagnosis, HealthProperties properties) {
		this.diagnosis = diagnosis;
		this.timeout = properties.redisTimeout();
	}

	// Bounded by lab.health.redis-timeout, as Lettuce's per-command timeout is off. One
	// check at a time on its own thread: while Redis stays stuck, probes answer DOWN at
	// once instead of piling up threads.
	@Override
	public Health health() {
		CompletableFuture<Health> check = this.running.get();
		if (check == null || check.isDone()) {
			check = CompletableFuture.supplyAsync(this::diagnose);
			this.running.set(check);
		}
		try {
			return check.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			return timedOut();
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			return Health.down().withException((cause != null) ? cause : ex).build();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return timedOut();
		}
	}

	private Health diagnose() {
		RedisDiagnosis.Finding finding = this.diagnosis.diagnose();
		RedisDiagnosis.Cause cause = finding.cause();
		Health.Builder health = (cause == null) ? Health.up() : Health.down().withDetail("cause", cause);
		return health.withDetail("summary", finding.summary()).withDetails(finding.details()).build();
	}

	private Health timedOut() {
		return Health.down().withDetail("error", "no answer within " + this.timeout.toMillis() + " ms").build();
	}

}
