package dev.pipelininglab.redis;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How pipelines are flushed and written, under {@code lab.pipeline.*}.
 *
 * @param flushPolicy {@code flush-each-command}, {@code flush-on-close} or
 * {@code buffered-<n>}; applied to the auto-configured {@code LettuceConnectionFactory},
 * since Spring Boot has no property for it
 * @param writes {@code per-command} (the default) keeps Lettuce's own endpoint, which
 * hands over every command on its own, as every Spring app gets it; {@code per-flush}
 * hands each flush to Netty as one message (on a cluster, per node connection)
 * @param routeIdleTimeout a route other than the default one (another flush policy,
 * connector or added round trip) that no run used for this long is closed, with its pool,
 * topology refresh and latency relays, and built again on demand: an unused route must
 * not keep reconnecting and logging through an outage
 */
@ConfigurationProperties("lab.pipeline")
@Validated
public record PipelineProperties(@DefaultValue("buffered-500") @NotNull FlushPolicy flushPolicy,
		@DefaultValue("per-command") @NotNull Writes writes, @DefaultValue("60s") @NotNull Duration routeIdleTimeout) {

}
