package dev.pipelininglab.reliability;

import java.time.Duration;

import com.jayway.jsonpath.DocumentContext;
import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnOwnRedis;
import dev.pipelininglab.testsupport.BackgroundRun;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Redis dies (SIGKILL) in the middle of a long pipelined run: the request ends at once
 * with a 503 problem that says how many batches Redis had acknowledged, and once a Redis
 * is back on the same port the next request succeeds without restarting the app.
 */
@SpringBootTest(properties = "spring.data.redis.timeout=" + RedisKilledMidRunTests.TIMEOUT_SECONDS + "s")
@OwnRedis
@SlowTest
class RedisKilledMidRunTests extends MockMvcOnOwnRedis {

	static final int TIMEOUT_SECONDS = 5;

	private static final int BATCH = 10_000;

	@Autowired
	StandaloneRedis redis;

	@Autowired
	ClientResources clientResources;

	@Test
	void killedMidRunAnswersA503WithTheBatchesDoneAndRecoversWhenRedisIsBack() throws Exception {
		BackgroundRun.Answer answer = BackgroundRun.longPipelinedSet(this.mvc, this.redis, this.keys, BATCH)
			.answerAfter(() -> Outages.kill(this.redis.process()), Duration.ofSeconds(TIMEOUT_SECONDS + 10));
		MockHttpServletResponse response = answer.response();
		Duration tookAfterKill = answer.after();

		System.out.printf("[reliability] killed mid-run: answered %d %d ms after SIGKILL: %s%n", response.getStatus(),
				tookAfterKill.toMillis(), response.getContentAsString());
		// Usually about 0.2 s. Commands Lettuce was still writing when the socket died
		// are re-queued for its at-least-once retry and only fail on a later reconnect
		// attempt (2 s once in a trial); closePipeline() never waits longer than the
		// timeout, after which the answer is a redis-timeout problem instead.
		assertThat(tookAfterKill).isLessThan(Duration.ofSeconds(TIMEOUT_SECONDS + 2));
		DocumentContext problem = answer.cutShortProblem(BATCH);
		assertThat(problem.read("$.type", String.class)).isIn(TYPES + "redis-unavailable", TYPES + "redis-timeout");
		assertThat(problem.read("$.detail", String.class)).contains(this.redis.host() + ":" + this.redis.port());
		assertThat(problem.read("$.batchesTotal", Long.class)).isEqualTo(300);
		assertThat(problem.read("$.written", Long.class)).isEqualTo(problem.read("$.acknowledged", Long.class));
		assertThat(response.getContentAsString()).doesNotContain("Exception", "trace");

		// While it is down, every kind of request fails fast.
		for (String uri : new String[] { "/loopset/10", "/pipeget/10", "/piperpop/10", "/pipeping/10",
				"/compare/get/10", "/sweep/ping/10", "/listinput/10" }) {
			long start = System.nanoTime();
			this.mvc.perform(get(uri))
				.andExpect(status().isServiceUnavailable())
				.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:redis-unavailable"));
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as(uri).isLessThan(Duration.ofSeconds(3));
		}
		this.mvc.perform(delete("/keys"))
			.andExpect(status().isServiceUnavailable())
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:redis-unavailable"));
		this.mvc.perform(get("/actuator/health")).andExpect(status().isServiceUnavailable());

		this.redis.restart();
		await().atMost(Duration.ofSeconds(40))
			.pollInterval(Duration.ofMillis(200))
			.untilAsserted(() -> this.mvc.perform(get("/pipeset/20000"))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.verified").value(20000)));
		this.mvc.perform(get("/loopset/100")).andExpect(status().isOk()).andExpect(jsonPath("$.verified").value(100));
	}

	/**
	 * Lettuce's default back-off doubles from 1 ms to 30 s: after an outage of 20 s a
	 * pooled connection would wait up to 30 s more once Redis is back. The app's waits
	 * stop growing at 1 s.
	 */
	@Test
	void reconnectAttemptsAfterALongOutageComeEverySecondAtMost() {
		Delay delay = this.clientResources.reconnectDelay();
		assertThat(delay.createDelay(1)).isLessThan(Duration.ofSeconds(1));
		assertThat(delay.createDelay(30)).isEqualTo(Duration.ofSeconds(1));
		assertThat(Delay.exponential().createDelay(30)).as("Lettuce's default").isEqualTo(Duration.ofSeconds(30));
	}

}
