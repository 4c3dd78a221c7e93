package dev.pipelininglab.job;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Runs started with {@code POST /runs}, and every run's record, under {@code lab.jobs.*}.
 *
 * @param queueCapacity jobs that may wait for a run slot when every one is taken (the one
 * limit, {@code lab.admission.max-concurrent}, counts GET runs and jobs together); past
 * it, 429 with Retry-After
 * @param recordTtl how long a record stays in Redis after its last update
 * @param history how many recent runs {@code GET /runs} can list
 * @param progressInterval how often event streams look at a run's progress
 * @param heartbeat how often a running run's record is written to Redis (its progress for
 * other instances, and the proof that its instance lives) and a cancel from another
 * instance is looked for
 * @param staleAfter a run whose record is older than this is its dead instance's: shown
 * as failed, and swept
 * @param sweepInterval how often each instance sweeps runs whose instance died: what they
 * may have written gets an expiry, and their records say FAILED; the first sweep comes
 * one heartbeat after start
 * @param eventsTimeout how long one {@code /runs/{id}/events} stream may stay open
 * @param shutdownWait how long shutdown waits for runs to stop between batches and then
 * for their keys' expiry, one deadline for both; with the web server's graceful phase and
 * a command in flight, the app's whole shutdown budget (docs/deploy.md)
 */
public record JobProperties(@DefaultValue("0") @Min(0) @Max(1000) int queueCapacity,
		@DefaultValue("24h") @NotNull Duration recordTtl, @DefaultValue("100") @Min(1) @Max(10_000) int history,
		@DefaultValue("200ms") @NotNull Duration progressInterval, @DefaultValue("5s") @NotNull Duration heartbeat,
		@DefaultValue("30s") @NotNull Duration staleAfter, @DefaultValue("30s") @NotNull Duration sweepInterval,
		@DefaultValue("30m") @NotNull Duration eventsTimeout, @DefaultValue("20s") @NotNull Duration shutdownWait) {

	public JobProperties {
		if (progressInterval.toMillis() < 10 || heartbeat.toMillis() < 10 || sweepInterval.toMillis() < 10) {
			throw new IllegalArgumentException("lab.jobs.progress-interval (" + progressInterval + "), heartbeat ("
					+ heartbeat + ") and sweep-interval (" + sweepInterval + ") must be at least 10ms");
		}
		// A heartbeat may come half a beat late (see RunStore#writeProgress), and one may
		// fail.
		if (staleAfter.compareTo(heartbeat.multipliedBy(3)) < 0) {
			throw new IllegalArgumentException("lab.jobs.stale-after (" + staleAfter
					+ ") must be at least three times lab.jobs.heartbeat (" + heartbeat + ")");
		}
		if (recordTtl.compareTo(Duration.ofMinutes(1)) < 0) {
			throw new IllegalArgumentException("lab.jobs.record-ttl (" + recordTtl + ") must be at least 1m");
		}
	}

}
