package dev.pipelininglab.reliability;

import java.time.Duration;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.BackgroundRun;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.testsupport.StopWithTheApp;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

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
@AutoConfigureMockMvc
class RedisKilledMidRunTests {

	static final int TIMEOUT_SECONDS = 5;

	private static final int BATCH = 10_000;

	static RedisServerProcess restarted;

	@Autowired
	StandaloneRedis redis;

	@Autowired
	MockMvc mvc;

	@Autowired
	KeySpace keys;

	@Test
	void killedMidRunAnswersA503WithTheBatchesDoneAndRecoversWhenRedisIsBack() throws Exception {
		// Batches are sent one after another, so the first key of batch 3 in Redis means
		// batches 1 and 2 are done.
		BackgroundRun run = BackgroundRun.start(this.mvc, "/pipeset/3000000?batchSize=" + BATCH)
			.awaitKey(this.redis, this.keys.key(2L * BATCH));
		BackgroundRun.Answer answer = run.answerAfter(this.redis.process()::kill,
				Duration.ofSeconds(TIMEOUT_SECONDS + 10));
		MockHttpServletResponse response = answer.response();
		Duration tookAfterKill = answer.after();

		System.out.printf("[reliability] killed mid-run: answered %d %d ms after SIGKILL: %s%n", response.getStatus(),
				tookAfterKill.toMillis(), response.getContentAsString());
		// Usually about 0.2 s. Commands Lettuce was still writing when the socket died
		// are re-queued for its
		// at-least-once retry and only fail on a later reconnect attempt (2 s once in a
		// trial); closePipeline()
		// never waits longer than the timeout, after which the answer is a redis-timeout
		// problem instead.
		assertThat(tookAfterKill).isLessThan(Duration.ofSeconds(TIMEOUT_SECONDS + 2));
		assertThat(response.getStatus()).isEqualTo(503);
		assertThat(response.getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		DocumentContext problem = JsonPath.parse(response.getContentAsString());
		assertThat(problem.read("$.type", String.class)).isIn("urn:pipelining-lab:problem:redis-unavailable",
				"urn:pipelining-lab:problem:redis-timeout");
		assertThat(problem.read("$.detail", String.class)).contains(this.redis.host() + ":" + this.redis.port());
		long batchesCompleted = problem.read("$.batchesCompleted", Long.class);
		assertThat(batchesCompleted).isBetween(2L, 299L);
		assertThat(problem.read("$.batchesTotal", Long.class)).isEqualTo(300);
		assertThat(problem.read("$.acknowledged", Long.class)).isEqualTo(batchesCompleted * BATCH);
		assertThat(problem.read("$.written", Long.class)).isEqualTo(batchesCompleted * BATCH);
		assertThat(problem.read("$.unconfirmed", Long.class)).isEqualTo(BATCH);
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

		restarted = RedisServerProcess.start(RedisTestServers.binary(), this.redis.port(),
				this.redis.process().workDir());
		await().atMost(Duration.ofSeconds(40))
			.pollInterval(Duration.ofMillis(200))
			.untilAsserted(() -> this.mvc.perform(get("/pipeset/20000"))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.verified").value(20000)));
		this.mvc.perform(get("/loopset/100")).andExpect(status().isOk()).andExpect(jsonPath("$.verified").value(100));
	}

	/**
	 * Stops the server started in place of the killed one once the app is done with it.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class RestartedRedisLifecycle {

		@Bean
		StopWithTheApp stopRestartedRedis() {
			return new StopWithTheApp(() -> {
				if (restarted != null) {
					restarted.stop();
				}
			});
		}

	}

}
