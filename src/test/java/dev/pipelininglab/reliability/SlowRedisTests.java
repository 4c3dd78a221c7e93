package dev.pipelininglab.reliability;

import java.time.Duration;

import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnOwnRedis;
import dev.pipelininglab.testsupport.BackgroundRun;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Redis stops answering but keeps its connections (SIGSTOP, as in a long blocking command
 * or a stalled host): {@code spring.data.redis.timeout} bounds every wait, pipelined and
 * looped alike, the answer is a 503 {@code redis-timeout} problem, and once Redis answers
 * again so does the app.
 */
@SpringBootTest(properties = "spring.data.redis.timeout=" + SlowRedisTests.TIMEOUT_MILLIS + "ms")
@OwnRedis
@SlowTest
class SlowRedisTests extends MockMvcOnOwnRedis {

	/** Short: every request to the stalled Redis waits it out, seven of them here. */
	static final long TIMEOUT_MILLIS = 1000;

	private static final String TIMEOUT_TYPE = "urn:pipelining-lab:problem:redis-timeout";

	/**
	 * Scheduling and the JSON answer on a busy 2-core machine; far below a hang (60 s by
	 * default).
	 */
	private static final Duration SLACK = Duration.ofMillis(4000);

	private static final int BATCH = 10_000;

	@Autowired
	StandaloneRedis redis;

	@AfterEach
	void answerAgain() {
		answerAgain(this.redis, "/pipeping/10");
	}

	@Test
	void pipelinedAndLoopedRunsTimeOutAsConfiguredWhileRedisIsStalled() throws Exception {
		this.mvc.perform(get("/pipeset/1000")).andExpect(status().isOk());
		Outages.pause(this.redis.process());
		for (String uri : new String[] { "/pipeset/1000", "/pipeget/1000", "/loopset/10", "/loopget/10", "/looprpop/10",
				"/compare/get/100?variants=loop,pipelined" }) {
			long start = System.nanoTime();
			this.mvc.perform(get(uri))
				.andExpect(status().isServiceUnavailable())
				.andExpect(jsonPath("$.type").value(TIMEOUT_TYPE))
				.andExpect(jsonPath("$.detail").value(containsString("spring.data.redis.timeout")))
				.andExpect(jsonPath("$.trace").doesNotExist());
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			System.out.printf("[reliability] stalled Redis: %s answered 503 redis-timeout after %d ms%n", uri,
					took.toMillis());
			assertThat(took).as(uri)
				.isBetween(Duration.ofMillis(TIMEOUT_MILLIS - 100), Duration.ofMillis(TIMEOUT_MILLIS).plus(SLACK));
		}
		this.mvc.perform(get("/actuator/health")).andExpect(status().isServiceUnavailable());

		Outages.resume(this.redis.process());
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> this.mvc.perform(get("/pipeset/1000"))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.verified").value(1000)));
		this.mvc.perform(get("/loopget/1000")).andExpect(status().isOk()).andExpect(jsonPath("$.hits").value(1000));
		this.mvc.perform(get("/actuator/health")).andExpect(status().isOk());
	}

	@Test
	void stalledInTheMiddleOfALongPipelinedRunSaysHowFarItGot() throws Exception {
		BackgroundRun.Answer answer = BackgroundRun.longPipelinedSet(this.mvc, this.redis, this.keys, BATCH)
			.answerAfter(() -> Outages.pause(this.redis.process()), Duration.ofMillis(TIMEOUT_MILLIS + 20_000));
		MockHttpServletResponse response = answer.response();
		System.out.printf("[reliability] stalled mid-run: answered %d after %d ms: %s%n", response.getStatus(),
				answer.after().toMillis(), response.getContentAsString());

		assertThat(answer.after()).isLessThan(Duration.ofMillis(TIMEOUT_MILLIS).plus(SLACK));
		assertThat(answer.cutShortProblem(BATCH).read("$.type", String.class)).isEqualTo(TIMEOUT_TYPE);
	}

}
