package dev.pipelininglab.web.outage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.RedisTestServers;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;

import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultMatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Sends requests in turn while a failover is under way and records how each ended and how
 * long it took, for the failover tests' verdict: every answer a 200 or a 503 problem,
 * none slower than the Redis timeout allows.
 */
final class FailoverProbe {

	/**
	 * Between requests, so a failover of a few seconds is sampled without flooding the
	 * log with 503s.
	 */
	private static final Duration PAUSE = Duration.ofMillis(100);

	/** The 503 problems an outage may answer, each naming what is missing. */
	static final List<String> OUTAGE_TYPES = java.util.stream.Stream
		.of("redis-unavailable", "redis-timeout", "redis-master-unreachable", "redis-sentinels-unreachable",
				"redis-cluster-down", "redis-node-unreachable")
		.map((type) -> "urn:pipelining-lab:problem:" + type)
		.toList();

	private final MockMvc mvc;

	private final List<String> uris;

	private final long startNanos = System.nanoTime();

	private final List<Outcome> outcomes = new ArrayList<>();

	FailoverProbe(MockMvc mvc, List<String> uris) {
		this.mvc = mvc;
		this.uris = uris;
	}

	/**
	 * @param status HTTP status @param type the problem type for a problem answer, else
	 * null
	 */
	record Outcome(String uri, int status, String type, Duration took, Duration at) {

		@Override
		public String toString() {
			return String.format(java.util.Locale.ROOT, "t=%5.2fs %-48s %d %s in %d ms", this.at.toMillis() / 1000.0,
					this.uri, this.status, (this.type != null) ? this.type : "", this.took.toMillis());
		}

	}

	/** Sends the URIs in turn until {@code done} completes. */
	void until(CompletableFuture<?> done) {
		AtomicInteger next = new AtomicInteger();
		await().atMost(Duration.ofMinutes(10)).pollDelay(Duration.ZERO).pollInterval(PAUSE).until(() -> {
			send(this.uris.get(next.getAndIncrement() % this.uris.size()));
			return done.isDone();
		});
	}

	/**
	 * Sends the URIs in turn until one answers as {@code wanted}, or {@code within} has
	 * passed.
	 */
	Outcome untilAnswer(Predicate<Outcome> wanted, Duration within) {
		AtomicInteger next = new AtomicInteger();
		AtomicReference<Outcome> last = new AtomicReference<>();
		try {
			await().atMost(within).pollDelay(Duration.ZERO).pollInterval(PAUSE).until(() -> {
				last.set(send(this.uris.get(next.getAndIncrement() % this.uris.size())));
				return wanted.test(last.get());
			});
		}
		catch (ConditionTimeoutException ex) {
			// The caller judges the last answer.
		}
		return last.get();
	}

	Outcome send(String uri) throws Exception {
		long start = System.nanoTime();
		MockHttpServletResponse response = this.mvc.perform(get(uri)).andReturn().getResponse();
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		String type = null;
		if (response.getStatus() != 200) {
			type = JsonPath.read(response.getContentAsString(), "$.type");
		}
		Outcome outcome = new Outcome(uri, response.getStatus(), type, took, Duration.ofNanos(start - this.startNanos));
		this.outcomes.add(outcome);
		return outcome;
	}

	/**
	 * A request that writes (SET, RPOP) succeeded: the end of the outage. Reads can
	 * succeed earlier, from replicas.
	 */
	static boolean wroteAgain(Outcome outcome) {
		return outcome.status() == 200 && !outcome.uri().startsWith("/pipeget")
				&& !outcome.uri().startsWith("/loopget");
	}

	/**
	 * Writes what a failover test's requests read: 20,000 demo keys (all verified) and
	 * the 20,000-element demo list.
	 */
	static void writeDemoData(MockMvc mvc) throws Exception {
		mvc.perform(get("/pipeset/20000")).andExpect(status().isOk()).andExpect(jsonPath("$.verified").value(20000));
		mvc.perform(get("/listinput/20000")).andExpect(status().isOk());
	}

	/**
	 * After the failover: a pipelined run of 20,000 SETs, every key verified and
	 * {@code more} holding, then one of 20,000 GETs that finds them all.
	 * @return the SET run's answer, for the log
	 */
	String pipelinesAgain(ResultMatcher... more) throws Exception {
		String next = this.mvc.perform(get("/pipeset/20000?sample=1"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.verified").value(20000))
			.andExpectAll(more)
			.andReturn()
			.getResponse()
			.getContentAsString();
		this.mvc.perform(get("/pipeget/20000")).andExpect(status().isOk()).andExpect(jsonPath("$.hits").value(20000));
		return next;
	}

	/** The summary, then every answer so far, one a line, for the log. */
	String report() {
		return summary() + "\n" + String.join("\n", this.outcomes.stream().map(Object::toString).toList());
	}

	/**
	 * Logs the one line per failover the benchmark notes quote: how long the servers took
	 * to promote, and the app to write through again.
	 * @param detection the setting that decides when the servers see the master down
	 */
	static void logTimings(Logger log, String topology, String detection, Duration promoted, Duration recovered) {
		log.info("[failover] {}, {} {} ms: promoted after {} ms, first SET over all slots through the app after {} ms",
				topology, detection, RedisTestServers.failoverDetectionMillis(), promoted.toMillis(),
				recovered.toMillis());
	}

	List<Outcome> outcomes() {
		return List.copyOf(this.outcomes);
	}

	/**
	 * Every answer so far was a 200 or a 503 problem (Redis unavailable or late), none
	 * slower than {@code bound}.
	 */
	void assertAllAnsweredWithin(Duration bound) {
		assertThat(this.outcomes).isNotEmpty().allSatisfy((outcome) -> {
			assertThat(outcome.status()).as(outcome.toString()).isIn(200, 503);
			if (outcome.status() == 503) {
				assertThat(outcome.type()).as(outcome.toString()).isIn(OUTAGE_TYPES);
			}
			assertThat(outcome.took()).as(outcome.toString()).isLessThan(bound);
		});
	}

	/** E.g. {@code 200=12, 503=31}, and the slowest answer. */
	String summary() {
		Map<Integer, Integer> byStatus = new TreeMap<>();
		this.outcomes.forEach((outcome) -> byStatus.merge(outcome.status(), 1, Integer::sum));
		long slowest = this.outcomes.stream().mapToLong((outcome) -> outcome.took().toMillis()).max().orElse(0);
		return byStatus + ", slowest " + slowest + " ms";
	}

}
