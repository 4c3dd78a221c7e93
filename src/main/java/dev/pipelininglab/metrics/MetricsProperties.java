package dev.pipelininglab.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Optional metrics whose cost is worth choosing, under {@code lab.metrics.*}.
 *
 * @param commandLatency Lettuce's per-command latency timers
 * ({@code lettuce.command.completion} and {@code lettuce.command.firstresponse}); off by
 * default because recording every command slows pipelined runs (docs/web-and-jobs.md has
 * the numbers)
 */
@ConfigurationProperties("lab.metrics")
public record MetricsProperties(@DefaultValue("false") boolean commandLatency) {

}
