package dev.pipelininglab.web;

import dev.pipelininglab.run.RunSlots;
import dev.pipelininglab.web.guard.AcceptCheck;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * What comes before a run waits for its slot ({@link RunSlots}): parameter and
 * {@code Accept} checks, so a request that cannot run is answered at once; and the
 * {@code runSlots} health component. {@code lab.admission.max-concurrent} (8) stays below
 * the Lettuce pool's max-active (16): health checks and cleanup need connections too.
 */
@Configuration(proxyBeanMethods = false)
class RunAdmission implements WebMvcConfigurer {

	static final String[] GATED = IndexController.ENDPOINTS.stream()
		.filter(IndexController.Endpoint::admitted)
		.map(IndexController.Endpoint::path)
		.distinct()
		.toArray(String[]::new);

	/** Always UP: a full instance is busy, not broken. */
	@Bean
	HealthIndicator runSlotsHealthIndicator(RunSlots slots) {
		return () -> Health.up()
			.withDetail("inUse", slots.inUse())
			.withDetail("maxConcurrent", slots.max())
			.withDetail("saturated", slots.inUse() >= slots.max())
			.build();
	}

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		// First, so a misspelt parameter is answered at once.
		registry.addInterceptor(new ParameterCheck());
		// An answer that cannot be given is refused before the run waits for a slot.
		registry.addInterceptor(new AcceptCheck()).addPathPatterns(GATED);
	}

}
