package dev.pipelininglab.web;

import java.time.Duration;

import dev.pipelininglab.run.AdmissionProperties;
import dev.pipelininglab.run.RunSlots;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Admission on its own: the run endpoints are all checked before they wait, a bounded
 * number of runs at a time, and the next one waits its turn up to max-wait (the 429 with
 * Retry-After it then gets, GET or job: {@code OneRunLimitTests}).
 */
class RunAdmissionTests {

	/**
	 * Every handler that runs commands is gated: the gate's paths come from the
	 * catalogue, and the catalogue lists every mapping that runs them (the single runs
	 * mapped from the same catalogue by {@code RunEndpointMappings}, the others by their
	 * annotation on {@code RunController}).
	 */
	@Test
	void everyRunEndpointOfTheControllerIsAdmitted() {
		java.util.Set<String> mapped = new java.util.TreeSet<>();
		for (java.lang.reflect.Method method : RunController.class.getDeclaredMethods()) {
			// The hidden handlers answer a path cut short (/compare/set) without a run:
			// none
			// takes a count.
			if (method.isAnnotationPresent(io.swagger.v3.oas.annotations.Hidden.class)) {
				org.assertj.core.api.Assertions
					.assertThat(method.getAnnotation(org.springframework.web.bind.annotation.GetMapping.class).value())
					.as(method.getName())
					.noneMatch((path) -> path.contains("{count}"));
				continue;
			}
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
		}
		mapped.addAll(RunEndpoint.paths((endpoint) -> true));
		org.assertj.core.api.Assertions.assertThat(mapped).hasSize(24);
		org.assertj.core.api.Assertions.assertThat(RunSlotsConfiguration.GATED)
			.containsExactlyInAnyOrderElementsOf(mapped);
	}

	@Test
	void admitsUpToTheLimitThenTurnsAwayAfterTheWait() throws Exception {
		RunSlots slots = new RunSlots(new AdmissionProperties(2, Duration.ofMillis(200)));
		assertThat(slots.take()).isTrue();
		assertThat(slots.take()).isTrue();

		long start = System.nanoTime();
		assertThat(slots.take()).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(190));

		slots.release();
		assertThat(slots.take()).isTrue();
		assertThat(slots.takeFree()).isFalse();
	}

	@Test
	void aWaitingRunGetsInWhenAnotherFinishes() throws Exception {
		RunSlots slots = new RunSlots(new AdmissionProperties(1, Duration.ofSeconds(10)));
		assertThat(slots.take()).isTrue();
		// Finishes the running one once the second one is waiting for its turn.
		Thread finisher = new Thread(() -> {
			await().atMost(Duration.ofSeconds(5)).until(() -> slots.queued() == 1);
			slots.release();
		});
		finisher.start();
		assertThat(slots.take()).isTrue();
		finisher.join();
	}

	/**
	 * First come, first served: a slot given back goes to the run that waited, not to a
	 * job that asks for a free one at that instant.
	 */
	@Test
	void aFreedSlotGoesToTheRunThatWaitedNotToOneThatJustAsked() throws Exception {
		RunSlots slots = new RunSlots(new AdmissionProperties(1, Duration.ofSeconds(10)));
		assertThat(slots.takeFree()).isTrue();
		java.util.concurrent.CompletableFuture<Boolean> waiting = java.util.concurrent.CompletableFuture
			.supplyAsync(() -> {
				try {
					return slots.take();
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException(ex);
				}
			});
		await().atMost(Duration.ofSeconds(5)).until(() -> slots.queued() == 1);
		slots.release();
		assertThat(slots.takeFree()).isFalse();
		assertThat(waiting.get(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
		assertThat(slots.inUse()).isEqualTo(1);
	}

	/** A queued job gives up its place when cancelled, well before its wait is over. */
	@Test
	void aWaitingRunThatGivesUpLeavesTheQueue() throws Exception {
		RunSlots slots = new RunSlots(new AdmissionProperties(1, Duration.ofSeconds(10)));
		assertThat(slots.takeFree()).isTrue();
		long start = System.nanoTime();
		assertThat(slots.take(Duration.ofDays(1), () -> System.nanoTime() - start > 300_000_000L)).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		assertThat(slots.queued()).isZero();
	}

	/**
	 * On shutdown nothing waits for a slot, and the deadline is there for what follows.
	 */
	@Test
	void closedSlotsRefuseWaitingRunsAtOnce() throws Exception {
		RunSlots slots = new RunSlots(new AdmissionProperties(1, Duration.ofSeconds(10)));
		slots.close(java.time.Instant.now().plusSeconds(20));
		long start = System.nanoTime();
		assertThat(slots.takeFree()).isFalse();
		assertThat(slots.take()).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
		slots.open();
		assertThat(slots.takeFree()).isTrue();
	}

}
