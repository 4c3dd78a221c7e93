package dev.pipelininglab.metrics;

import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Lettuce's per-command latency timers, if {@code lab.metrics.command-latency}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("lab.metrics.command-latency")
class CommandLatencyConfiguration {

	@Bean
	ClientResourcesBuilderCustomizer commandLatencyMetrics(MeterRegistry registry) {
		MicrometerOptions options = MicrometerOptions.builder().enable().build();
		return (resources) -> resources.commandLatencyRecorder(new MicrometerCommandLatencyRecorder(registry, options));
	}

}
