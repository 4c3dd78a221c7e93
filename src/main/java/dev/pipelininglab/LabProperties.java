package dev.pipelininglab;

import java.time.Duration;
import java.util.List;

import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.Writes;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The lab's own settings, all under {@code lab.*}. Connections are configured with Spring
 * Boot's {@code spring.data.redis.*} properties, not here.
 *
 * @param keyPrefix every key the lab writes, reads or deletes starts with
 * {@code <keyPrefix>:}
 * @param limits bounds on what one request may ask for
 * @param pipeline how pipelines are flushed
 * @param localRedis the redis-server the app starts itself when no Redis is reachable
 * @param jobs runs started with {@code POST /runs}: how many at once, and how their
 * records are kept
 * @param metrics optional metrics whose cost is worth choosing
 * @param admission how many GET run requests may use Redis at once
 * @param security which host names the server answers to
 * @param health how long the Redis health check may take
 */
@ConfigurationProperties("lab")
@Validated
public record LabProperties(
		// Restricted so the SCAN pattern built from it can never match keys outside the
		// prefix.
		@DefaultValue("pipelining-lab") @Pattern(regexp = "[A-Za-z0-9._-]{1,64}",
				message = "must be 1 to 64 letters, digits, '.', '_' or '-' (no glob characters)") String keyPrefix,
		@DefaultValue @Valid Limits limits, @DefaultValue @Valid Pipeline pipeline, @DefaultValue LocalRedis localRedis,
		@DefaultValue @Valid Jobs jobs, @DefaultValue Metrics metrics, @DefaultValue @Valid Admission admission,
		@DefaultValue @Valid Security security, @DefaultValue @Valid Health health) {

	/**
	 * @param maxCount the most commands one request may send
	 * @param defaultBatchSize commands per pipeline when a request does not say; the
	 * Redis docs advise about 10k
	 * @param maxBatchSize the largest batch a request may ask for; bounds the memory one
	 * batch holds
	 * @param defaultSample values echoed back when a request does not say
	 * @param maxSample the most values a request may ask to see
	 * @param maxRepeat the most timed passes a comparison or sweep may ask for
	 * @param maxValueSize the largest {@code valueSize} (bytes per value) a request may
	 * ask for
	 * @param maxBatchBytes the most value bytes one batch may hold (batch size x value
	 * size); larger batches are shrunk to fit, and the answer says so
	 * @param maxRequests the most {@code requests} (fan-out) a request may ask for; count
	 * x requests stays within {@code maxCount}
	 * @param maxClients the most {@code clients} a request may ask for
	 * @param maxBodyBytes the largest request body ({@code POST /runs}); a run's JSON
	 * takes a few hundred bytes, so the default 16 KiB is plenty, and a larger body is
	 * refused before it is read
	 * @param maxRunTime the longest a GET run may hold its admission slot: it is stopped
	 * between commands after that (jobs have their own slots and a cancel)
	 * @param maxRunBytes the most value bytes one request may send, count x requests x
	 * valueSize x variants (or batch sizes): 4 GiB, which a laptop's Redis holds at once
	 * (every variant rewrites the same keys), checked before anything runs
	 */
	public record Limits(@DefaultValue("10000000") @Min(1) long maxCount,
			@DefaultValue("10000") @Min(1) int defaultBatchSize,
			@DefaultValue("100000") @Min(1) @Max(1_000_000) int maxBatchSize,
			@DefaultValue("10") @Min(0) int defaultSample, @DefaultValue("1000") @Min(0) @Max(100_000) int maxSample,
			@DefaultValue("9") @Min(1) @Max(100) int maxRepeat,
			@DefaultValue("1048576") @Min(1) @Max(512L << 20) int maxValueSize,
			@DefaultValue("16777216") @Min(1) long maxBatchBytes,
			@DefaultValue("100000") @Min(1) @Max(10_000_000) int maxRequests,
			@DefaultValue("64") @Min(1) @Max(256) int maxClients,
			@DefaultValue("16384") @Min(1024) @Max(1 << 20) int maxBodyBytes,
			@DefaultValue("10m") @NotNull Duration maxRunTime, @DefaultValue("4294967296") @Min(1) long maxRunBytes) {

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
	 * @param flushPolicy {@code flush-each-command}, {@code flush-on-close} or
	 * {@code buffered-<n>}; applied to the auto-configured
	 * {@code LettuceConnectionFactory}, since Spring Boot has no property for it
	 * @param writes {@code per-command} (the default) keeps Lettuce's own endpoint, which
	 * hands over every command on its own, as every Spring app gets it; {@code per-flush}
	 * hands each flush to Netty as one message (on a cluster, per node connection)
	 * @param routeIdleTimeout a route other than the default one (another flush policy,
	 * connector or added round trip) that no run used for this long is closed, with its
	 * pool, topology refresh and latency relays, and built again on demand: an unused
	 * route must not keep reconnecting and logging through an outage
	 */
	public record Pipeline(@DefaultValue("buffered-500") @NotNull FlushPolicy flushPolicy,
			@DefaultValue("per-command") @NotNull Writes writes,
			@DefaultValue("60s") @NotNull Duration routeIdleTimeout) {
	}

	/**
	 * @param enabled start a local redis-server when none answers at the configured
	 * standalone loopback address
	 * @param binary a redis-server executable to use instead of the one on the PATH or
	 * the bundled one
	 */
	public record LocalRedis(@DefaultValue("true") boolean enabled, @Nullable String binary) {
	}

	/**
	 * @param maxConcurrent runs this instance measures at once; on two cores, more than
	 * two mostly measure each other
	 * @param queueCapacity runs accepted beyond those, waiting for a free slot; past
	 * both, {@code POST /runs} answers 429 with {@code Retry-After}
	 * @param recordTtl how long a run's record stays in Redis after its last update
	 * @param history how many recent runs {@code GET /runs} can list
	 * @param progressInterval how often a running job writes its progress to Redis and
	 * looks for a cancel request, and how often event streams look at the record
	 * @param staleAfter a record not updated for this long belongs to an instance that
	 * stopped: it is shown as failed
	 * @param eventsTimeout how long one {@code /runs/{id}/events} stream may stay open
	 * @param shutdownWait how long shutdown waits for running jobs to stop between
	 * batches
	 */
	public record Jobs(@DefaultValue("2") @Min(1) @Max(64) int maxConcurrent,
			@DefaultValue("0") @Min(0) @Max(1000) int queueCapacity, @DefaultValue("24h") @NotNull Duration recordTtl,
			@DefaultValue("100") @Min(1) @Max(10_000) int history,
			@DefaultValue("200ms") @NotNull Duration progressInterval,
			@DefaultValue("30s") @NotNull Duration staleAfter, @DefaultValue("30m") @NotNull Duration eventsTimeout,
			@DefaultValue("20s") @NotNull Duration shutdownWait) {

		public Jobs {
			if (progressInterval.toMillis() < 10 || staleAfter.compareTo(progressInterval.multipliedBy(10)) < 0) {
				throw new IllegalArgumentException("lab.jobs.progress-interval (" + progressInterval
						+ ") must be at least 10ms and lab.jobs.stale-after (" + staleAfter
						+ ") at least ten times it");
			}
			if (recordTtl.compareTo(Duration.ofMinutes(1)) < 0) {
				throw new IllegalArgumentException("lab.jobs.record-ttl (" + recordTtl + ") must be at least 1m");
			}
		}

	}

	/**
	 * @param commandLatency Lettuce's per-command latency timers
	 * ({@code lettuce.command.completion} and {@code lettuce.command.firstresponse}); off
	 * by default because recording every command slows pipelined runs
	 * (docs/web-and-jobs.md has the numbers)
	 */
	public record Metrics(@DefaultValue("false") boolean commandLatency) {
	}

	/**
	 * @param maxConcurrent requests that may run commands at once; keep it below the
	 * connection pool's {@code spring.data.redis.lettuce.pool.max-active}, or a burst
	 * would exhaust the pool
	 * @param maxWait how long a request may queue for its turn before it is answered 429
	 */
	public record Admission(@DefaultValue("8") @Min(1) int maxConcurrent,
			@DefaultValue("20s") @NotNull Duration maxWait) {
	}

	/**
	 * @param allowedHosts host names (or addresses) a request's {@code Host} may name;
	 * any other is answered 403, so a DNS-rebinding page cannot reach the app under a
	 * name of its own. The address in {@code server.address} is allowed as well. Add the
	 * public name when the app is deployed behind one (a reverse proxy, a container
	 * name); a single {@code *} turns the check off.
	 */
	public record Security(@DefaultValue( {
			"localhost", "127.0.0.1", "::1" }) @NotEmpty List<@NotBlank String> allowedHosts){
	}

	/**
	 * @param redisTimeout how long {@code /actuator/health} waits for Redis before it
	 * reports it DOWN; far shorter than {@code spring.data.redis.timeout}, so a stuck
	 * server (SIGSTOP, a long blocking command) is reported at once rather than hanging
	 * the probe
	 */
	public record Health(@DefaultValue("1s") @NotNull Duration redisTimeout) {
	}

}
