package dev.pipelininglab.reliability;

import java.time.Duration;

import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnOwnRedis;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.AfterEach;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.MvcResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A stuck Redis (SIGSTOP) with the shipped defaults, none overridden: health reports it
 * DOWN within {@code lab.health.redis-timeout} (1 s) and small requests fail within
 * {@code spring.data.redis.timeout} (5 s), rather than the whole probe or request hanging
 * for Boot's 60 s (or, for the reactive health check, for as long as Redis stays stuck).
 */
@SpringBootTest
@OwnRedis
@SlowTest
class StuckRedisDefaultsTests extends MockMvcOnOwnRedis {

	/** Scheduling and the JSON answer on a busy 2-core machine. */
	private static final Duration SLACK = Duration.ofMillis(3000);

	@Autowired
	StandaloneRedis redis;

	@AfterEach
	void answerAgain() {
		answerAgain(this.redis, "/actuator/health");
	}

	@Test
	void healthAndSmallRequestsFailFastAgainstAStuckServer() throws Exception {
		this.mvc.perform(get("/pipeping/1")).andExpect(status().isOk());
		this.mvc.perform(get("/actuator/health")).andExpect(status().isOk());
		Outages.pause(this.redis.process());
		assertAnswered("/actuator/health", 503, Duration.ofSeconds(1));
		assertAnswered("/actuator/health", 503, Duration.ofSeconds(1));
		assertAnswered("/pipeping/1", 503, Duration.ofSeconds(5));
		// The history answers from this instance's memory and says why Redis's copy is
		// missing.
		MvcResult runs = assertAnswered("/runs", 200, Duration.ofSeconds(5));
		assertThat(JsonPath.<String>read(runs.getResponse().getContentAsString(), "$.unavailable")).isNotBlank();
		Outages.resume(this.redis.process());
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> this.mvc.perform(get("/pipeping/1")).andExpect(status().isOk()));
	}

	private MvcResult assertAnswered(String uri, int expected, Duration budget) throws Exception {
		long start = System.nanoTime();
		MvcResult result = this.mvc.perform(get(uri)).andReturn();
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		System.out.printf("[reliability] stuck Redis, default settings: %s answered %d after %d ms%n", uri,
				result.getResponse().getStatus(), took.toMillis());
		assertThat(result.getResponse().getStatus()).as(uri).isEqualTo(expected);
		assertThat(took).as(uri).isLessThan(budget.plus(SLACK));
		return result;
	}

}
