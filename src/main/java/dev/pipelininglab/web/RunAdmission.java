package dev.pipelininglab.web;

import java.time.Duration;
import java.util.function.Supplier;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.job.RunJobs;
import dev.pipelininglab.run.RunSlots;
import dev.pipelininglab.web.guard.AcceptCheck;
import dev.pipelininglab.web.problem.Problems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Lets a bounded number of runs work on Redis at once, GET runs and jobs sharing one
 * limit ({@link RunSlots}), and queues the rest, first come first served. A burst of
 * requests then neither piles onto someone's Redis nor starves on the app's connection
 * pool (whose waits would otherwise end in failures); a request that waits longer than
 * {@code lab.admission.max-wait} is answered 429 with {@code Retry-After}. Only the
 * endpoints that run commands are gated; the page, health and metrics never wait.
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

	private final Gate gate;

	RunAdmission(RunSlots slots, RunJobs jobs) {
		// GET runs are short as a rule: a second, unless jobs hold slots and say better.
		this.gate = new Gate(slots, () -> (jobs.active() > 0) ? jobs.retryAfter() : Duration.ofSeconds(1));
	}

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
		// First, so a misspelt parameter is answered at once rather than after a wait for
		// a permit.
		registry.addInterceptor(new ParameterCheck());
		// Before the gate too: an answer that cannot be given is refused without a wait.
		registry.addInterceptor(new AcceptCheck()).addPathPatterns(GATED);
		registry.addInterceptor(this.gate).addPathPatterns(GATED);
	}

	/**
	 * A GET run takes one of the slots jobs take too, for as long as its request runs.
	 */
	static final class Gate implements HandlerInterceptor {

		private static final String HOLDS_PERMIT = Gate.class.getName() + ".permit";

		private final RunSlots slots;

		/**
		 * When a slot is likely free again: from the jobs' pace, when they hold slots.
		 */
		private final Supplier<Duration> retryAfter;

		Gate(RunSlots slots, Supplier<Duration> retryAfter) {
			this.slots = slots;
			this.retryAfter = retryAfter;
		}

		@Override
		public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
				throws InterruptedException {
			if (!this.slots.take()) {
				throw new TooBusyException(this.slots.max(), this.slots.maxWait(), this.retryAfter.get());
			}
			request.setAttribute(HOLDS_PERMIT, Boolean.TRUE);
			return true;
		}

		@Override
		public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
				@Nullable Exception ex) {
			if (request.getAttribute(HOLDS_PERMIT) != null) {
				request.removeAttribute(HOLDS_PERMIT);
				this.slots.release();
			}
		}

	}

	/** Rendered by Spring MVC as the problem it carries, with Retry-After. */
	static final class TooBusyException extends ErrorResponseException {

		TooBusyException(int maxConcurrent, Duration maxWait, Duration retryAfter) {
			super(Problems.status(ProblemType.TOO_BUSY), problem(maxConcurrent, maxWait), null);
			getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
		}

		private static ProblemDetail problem(int maxConcurrent, Duration maxWait) {
			return Problems.problem(ProblemType.TOO_BUSY,
					"This app runs at most " + maxConcurrent + " runs on Redis at once, GET runs and jobs together"
							+ " (lab.admission.max-concurrent), and this one waited " + maxWait.toSeconds()
							+ " s for its turn (lab.admission.max-wait); retry in a moment.");
		}

	}

}
