package dev.pipelininglab.redis;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How pipelines are flushed and written, under {@code lab.pipeline.*}.
 *
 * @param flushPolicy {@code flush-each-command}, {@code flush-on-close} or
 * {@code buffered-<n>}
 * @param writes {@code per-command} (Lettuce as it ships) or {@code per-flush} (one Netty
 * message per flush)
 * @param routeIdleTimeout a route no run used for this long is closed, so it does not
 * reconnect through an outage
 */
public record PipelineProperties(@DefaultValue("buffered-500") @NotNull FlushPolicy flushPolicy,
		@DefaultValue("per-command") @NotNull Writes writes, @DefaultValue("60s") @NotNull Duration routeIdleTimeout) {

}
