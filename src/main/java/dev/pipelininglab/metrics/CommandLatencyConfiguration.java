package dev.pipelininglab.metrics;

import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Lettuce's own per-command latency timers ({@code lettuce.command.completion},
 * {@code lettuce.command.firstresponse}, tagged by command and remote address), when
 * {@code lab.metrics.command-latency=true}. Every command of every pipeline is recorded,
 * which is why it is a choice: docs/web-and-jobs.md has what it costs a pipelined run.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("lab.metrics.command-latency")
class CommandLatencyConfiguration {

	@Bean
	ClientResourcesBuilderCustomizer commandLatencyMetrics(MeterRegistry registry) {
		MicrometerOptions options = MicrometerOptions.builder().enable().build();
		return (resources) -> resources.commandLatencyRecorder(new MicrometerCommandLatencyRecorder(registry, options));
	}

}
