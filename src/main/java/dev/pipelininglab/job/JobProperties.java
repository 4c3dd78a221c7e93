package dev.pipelininglab.job;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Runs started with {@code POST /runs}, under {@code lab.jobs.*}.
 *
 * @param maxConcurrent jobs measured at once; on two cores more mostly measure each other
 * @param queueCapacity jobs waiting beyond those; past both, 429 with Retry-After
 * @param recordTtl how long a record stays in Redis after its last update
 * @param history how many recent runs {@code GET /runs} can list
 * @param progressInterval how often a job writes progress and looks for a cancel
 * @param staleAfter a record older than this is its stopped instance's: shown as failed
 * @param eventsTimeout how long one {@code /runs/{id}/events} stream may stay open
 * @param shutdownWait how long shutdown waits for jobs to stop between batches
 */
@ConfigurationProperties("lab.jobs")
@Validated
public record JobProperties(@DefaultValue("2") @Min(1) @Max(64) int maxConcurrent,
		@DefaultValue("0") @Min(0) @Max(1000) int queueCapacity, @DefaultValue("24h") @NotNull Duration recordTtl,
		@DefaultValue("100") @Min(1) @Max(10_000) int history,
		@DefaultValue("200ms") @NotNull Duration progressInterval, @DefaultValue("30s") @NotNull Duration staleAfter,
		@DefaultValue("30m") @NotNull Duration eventsTimeout, @DefaultValue("20s") @NotNull Duration shutdownWait) {

	public JobProperties {
		if (progressInterval.toMillis() < 10 || staleAfter.compareTo(progressInterval.multipliedBy(10)) < 0) {
			throw new IllegalArgumentException("lab.jobs.progress-interval (" + progressInterval
					+ ") must be at least 10ms and lab.jobs.stale-after (" + staleAfter + ") at least ten times it");
		}
		if (recordTtl.compareTo(Duration.ofMinutes(1)) < 0) {
			throw new IllegalArgumentException("lab.jobs.record-ttl (" + recordTtl + ") must be at least 1m");
		}
	}

}
