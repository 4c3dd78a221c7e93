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
 * What comes before a run waits for its slot on the one run executor
 * ({@code job.RunJobs}, which admits GET runs and jobs under one limit,
 * {@link RunSlots}): parameter and {@code Accept} checks, so a request that cannot run is
 * answered at once; and the {@code runSlots} health component. Only the endpoints that
 * run commands are checked; the page, health and metrics never wait.
 * <p>
 * {@code lab.admission.max-concurrent} (default 8) should stay below
 * {@code spring.data.redis.lettuce.pool.max-active} (16): a run holds one pooled
 * connection at a time, and health checks and cleanup need theirs too.
 */
@Configuration(proxyBeanMethods = false)
class RunAdmission implements WebMvcConfigurer {

	/** The endpoints that run commands, from the one catalogue that lists them all. */
	static final String[] GATED = IndexController.ENDPOINTS.stream()
		.filter(IndexController.Endpoint::admitted)
		.map(IndexController.Endpoint::path)
		.distinct()
		.toArray(String[]::new);

	/**
	 * The {@code runSlots} health component: always UP (a full instance is busy, not
	 * broken), with how many run slots GET runs and jobs hold together, so saturation
	 * shows at {@code /actuator/health/runs} while every request waits or answers 429.
	 */
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
