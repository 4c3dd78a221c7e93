package dev.pipelininglab.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Optional metrics whose cost is worth choosing, under {@code lab.metrics.*}.
 *
 * @param commandLatency Lettuce's per-command latency timers; off as they slow pipelined
 * runs
 */
@ConfigurationProperties("lab.metrics")
public record MetricsProperties(@DefaultValue("false") boolean commandLatency) {

}
