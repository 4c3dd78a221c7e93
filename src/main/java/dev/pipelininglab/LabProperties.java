package dev.pipelininglab;

import dev.pipelininglab.redis.FlushPolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The lab's own settings, all under {@code lab.*}. Connections are configured with Spring Boot's
 * {@code spring.data.redis.*} properties, not here.
 *
 * @param keyPrefix every key the lab writes, reads or deletes starts with {@code <keyPrefix>:}
 * @param limits bounds on what one request may ask for
 * @param pipeline how pipelines are flushed
 * @param localRedis the redis-server the app starts itself when no Redis is reachable
 */
@ConfigurationProperties("lab")
@Validated
public record LabProperties(
		// Restricted so the SCAN pattern built from it can never match keys outside the prefix.
		@DefaultValue("pipelining-lab") @Pattern(regexp = "[A-Za-z0-9._-]{1,64}",
				message = "must be 1 to 64 letters, digits, '.', '_' or '-' (no glob characters)") String keyPrefix,
		@DefaultValue @Valid Limits limits,
		@DefaultValue @Valid Pipeline pipeline,
		@DefaultValue LocalRedis localRedis) {

	/**
	 * @param maxCount the most commands one request may send
	 * @param defaultBatchSize commands per pipeline when a request does not say; the Redis docs advise about 10k
	 * @param maxBatchSize the largest batch a request may ask for; bounds the memory one batch holds
	 * @param defaultSample values echoed back when a request does not say
	 * @param maxSample the most values a request may ask to see
	 * @param maxRepeat the most timed passes a comparison or sweep may ask for
	 */
	public record Limits(
			@DefaultValue("10000000") @Min(1) long maxCount,
			@DefaultValue("10000") @Min(1) int defaultBatchSize,
			@DefaultValue("100000") @Min(1) @Max(1_000_000) int maxBatchSize,
			@DefaultValue("10") @Min(0) int defaultSample,
			@DefaultValue("1000") @Min(0) @Max(100_000) int maxSample,
			@DefaultValue("9") @Min(1) @Max(100) int maxRepeat) {

		public Limits {
			if (defaultBatchSize > maxBatchSize) {
				throw new IllegalArgumentException("lab.limits.default-batch-size (" + defaultBatchSize
						+ ") must not exceed lab.limits.max-batch-size (" + maxBatchSize + ")");
			}
			if (defaultSample > maxSample) {
				throw new IllegalArgumentException("lab.limits.default-sample (" + defaultSample
						+ ") must not exceed lab.limits.max-sample (" + maxSample + ")");
			}
		}

	}

	/**
	 * @param flushPolicy {@code flush-each-command}, {@code flush-on-close} or {@code buffered-<n>}; applied to
	 * the auto-configured {@code LettuceConnectionFactory}, since Spring Boot has no property for it
	 */
	public record Pipeline(@DefaultValue("flush-on-close") @NotNull FlushPolicy flushPolicy) {
	}

	/**
	 * @param enabled start a local redis-server when none answers at the configured standalone loopback address
	 * @param binary a redis-server executable to use instead of the one on the PATH or the bundled one
	 */
	public record LocalRedis(@DefaultValue("true") boolean enabled, @Nullable String binary) {
	}

}
