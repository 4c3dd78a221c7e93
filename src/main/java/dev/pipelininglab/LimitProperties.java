package dev.pipelininglab;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Bounds on what one request may ask for, under {@code lab.limits.*}.
 *
 * @param maxCount the most commands one request may send
 * @param defaultBatchSize commands per pipeline when a request does not say
 * @param maxBatchSize the largest batch a request may ask for
 * @param defaultSample values echoed back when a request does not say
 * @param maxSample the most values a request may ask to see
 * @param maxRepeat the most timed passes a comparison or sweep may ask for
 * @param maxValueSize the largest {@code valueSize} in bytes
 * @param maxBatchBytes the most value bytes one batch may hold; larger batches are shrunk
 * to fit
 * @param maxRequests the most {@code requests} (fan-out); count x requests stays within
 * {@code maxCount}
 * @param maxClients the most {@code clients}; routes size their pools for it
 * @param maxBodyBytes the largest request body ({@code POST /runs}), refused before it is
 * read
 * @param maxRunTime the longest a run may hold its slot before it is stopped between
 * commands
 * @param maxDuration the longest {@code duration} per timed pass; lowered to
 * {@code maxRunTime}
 * @param maxRunBytes the most value bytes one request may send, checked before anything
 * runs
 */
public record LimitProperties(@DefaultValue("10000000") @Min(1) long maxCount,
		@DefaultValue("10000") @Min(1) int defaultBatchSize,
		@DefaultValue("100000") @Min(1) @Max(1_000_000) int maxBatchSize, @DefaultValue("10") @Min(0) int defaultSample,
		@DefaultValue("1000") @Min(0) @Max(100_000) int maxSample, @DefaultValue("9") @Min(1) @Max(100) int maxRepeat,
		@DefaultValue("1048576") @Min(1) @Max(512L << 20) int maxValueSize,
		@DefaultValue("16777216") @Min(1) long maxBatchBytes,
		@DefaultValue("100000") @Min(1) @Max(10_000_000) int maxRequests,
		@DefaultValue("64") @Min(1) @Max(256) int maxClients,
		@DefaultValue("16384") @Min(1024) @Max(1 << 20) int maxBodyBytes,
		@DefaultValue("10m") @NotNull Duration maxRunTime, @DefaultValue("4294967296") @Min(1) long maxRunBytes,
		@DefaultValue("5m") @NotNull Duration maxDuration) {

	public LimitProperties {
		if (defaultBatchSize > maxBatchSize) {
			throw new IllegalArgumentException("lab.limits.default-batch-size (" + defaultBatchSize
					+ ") must not exceed lab.limits.max-batch-size (" + maxBatchSize + ")");
		}
		if (maxDuration.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new IllegalArgumentException("lab.limits.max-duration (" + maxDuration + ") must be at least 1s");
		}
		// A time limit beyond max-run-time could never be reached: lower it rather than
		// refuse to start.
		if (maxDuration.compareTo(maxRunTime) > 0 && maxRunTime.compareTo(Duration.ofSeconds(1)) >= 0) {
			maxDuration = maxRunTime;
		}
		if (defaultSample > maxSample) {
			throw new IllegalArgumentException("lab.limits.default-sample (" + defaultSample
					+ ") must not exceed lab.limits.max-sample (" + maxSample + ")");
		}
	}

}
