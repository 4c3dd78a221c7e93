package dev.pipelininglab.web;

import java.util.List;

import dev.pipelininglab.run.RunSlots;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Which endpoints wait for a run slot ({@link RunSlots}) and are checked before they wait
 * (the {@code Accept} check of {@code web.guard} and {@link WholeAnswerFilter} read
 * {@link #GATED}); and the {@code runSlots} health component.
 * {@code lab.admission.max-concurrent} (8) stays below the Lettuce pool's max-active
 * (16): health checks and cleanup need connections too.
 */
@Configuration(proxyBeanMethods = false)
public class RunSlotsConfiguration {

	public static final List<String> GATED = IndexController.ENDPOINTS.stream()
		.filter(IndexController.Endpoint::admitted)
		.map(IndexController.Endpoint::path)
		.distinct()
		.toList();

	/** Always UP: a full instance is busy, not broken. */
	@Bean
	HealthIndicator runSlotsHealthIndicator(RunSlots slots) {
		return () -> Health.up()
			.withDetail("inUse", slots.inUse())
			.withDetail("maxConcurrent", slots.max())
			.withDetail("saturated", slots.inUse() >= slots.max())
			.build();
	}

}
