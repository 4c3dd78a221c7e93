package dev.pipelininglab.web;

import java.time.Duration;

import dev.pipelininglab.run.AdmissionProperties;
import dev.pipelininglab.run.RunSlots;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The admission gate on its own: a bounded number of requests at a time, the next one
 * waits its turn, and one that waits too long is a 429 problem with Retry-After.
 */
class RunAdmissionTests {

	/**
	 * Every handler that runs commands is gated: the gate's paths come from the
	 * catalogue, and the catalogue lists every mapping of the controller that runs them
	 * (the single runs mapped from the same catalogue, the others by their annotation).
	 */
	@Test
	void everyRunEndpointOfTheControllerIsAdmitted() {
		java.util.Set<String> mapped = new java.util.TreeSet<>();
		for (java.lang.reflect.Method method : RunController.class.getDeclaredMethods()) {
			org.springframework.web.bind.annotation.GetMapping get = method
				.getAnnotation(org.springframework.web.bind.annotation.GetMapping.class);
			org.springframework.web.bind.annotation.DeleteMapping delete = method
				.getAnnotation(org.springframework.web.bind.annotation.DeleteMapping.class);
			if (get != null) {
				mapped.addAll(java.util.List.of(get.value()));
			}
			if (delete != null) {
				mapped.addAll(java.util.List.of(delete.value()));
			}
			RunEndpoint.Mapped runs = method.getAnnotation(RunEndpoint.Mapped.class);
			if (runs != null) {
				mapped.addAll(java.util.List.of(RunEndpoint.paths(runs)));
			}
		}
		org.assertj.core.api.Assertions.assertThat(mapped).hasSize(24);
		org.assertj.core.api.Assertions.assertThat(RunAdmission.GATED).containsExactlyInAnyOrderElementsOf(mapped);
	}

	@Test
	void admitsUpToTheLimitThenAnswers429AfterTheWait() throws Exception {
		RunAdmission.Gate gate = gate(2, Duration.ofMillis(200));
		MockHttpServletRequest first = new MockHttpServletRequest();
		MockHttpServletRequest second = new MockHttpServletRequest();
		MockHttpServletResponse response = new MockHttpServletResponse();
		assertThat(gate.preHandle(first, response, null)).isTrue();
		assertThat(gate.preHandle(second, response, null)).isTrue();

		long start = System.nanoTime();
		assertThatExceptionOfType(RunAdmission.TooBusyException.class)
			.isThrownBy(() -> gate.preHandle(new MockHttpServletRequest(), response, null))
			.satisfies((busy) -> {
				assertThat(busy.getStatusCode().value()).isEqualTo(429);
				assertThat(busy.getHeaders().getFirst("Retry-After")).isEqualTo("1");
				assertThat(busy.getBody().getType().toString()).isEqualTo("urn:pipelining-lab:problem:too-busy");
				assertThat(busy.getBody().getDetail()).contains("lab.admission.max-concurrent");
			});
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(190));

		gate.afterCompletion(first, response, null, null);
		// Completing twice (an error dispatch after the first) gives back one permit, not
		// two.
		gate.afterCompletion(first, response, null, null);
		MockHttpServletRequest third = new MockHttpServletRequest();
		assertThat(gate.preHandle(third, response, null)).isTrue();
		assertThatExceptionOfType(RunAdmission.TooBusyException.class)
			.isThrownBy(() -> gate.preHandle(new MockHttpServletRequest(), response, null));
	}

	@Test
	void aWaitingRequestGetsInWhenAnotherFinishes() throws Exception {
		RunSlots slots = new RunSlots(new AdmissionProperties(1, Duration.ofSeconds(10)));
		RunAdmission.Gate gate = new RunAdmission.Gate(slots, () -> Duration.ofSeconds(1));
		MockHttpServletRequest running = new MockHttpServletRequest();
		MockHttpServletResponse response = new MockHttpServletResponse();
		gate.preHandle(running, response, null);
		// Finishes the running request once the second one is waiting at the gate.
		Thread finisher = new Thread(() -> {
			await().atMost(Duration.ofSeconds(5)).until(() -> slots.queued() == 1);
			gate.afterCompletion(running, response, null, null);
		});
		finisher.start();
		assertThat(gate.preHandle(new MockHttpServletRequest(), response, null)).isTrue();
		finisher.join();
	}

	private static RunAdmission.Gate gate(int slots, Duration maxWait) {
		return new RunAdmission.Gate(new RunSlots(new AdmissionProperties(slots, maxWait)),
				() -> Duration.ofSeconds(1));
	}

}
