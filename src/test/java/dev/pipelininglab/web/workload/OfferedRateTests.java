package dev.pipelininglab.web.workload;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * "What is my p99 at 2,000 ops/s?": with {@code rate} a run offers a fixed load instead
 * of going as fast as it can, says whether the rate was held, and times each command from
 * when it was due, so a stall of the server shows in the percentiles of every command it
 * held up.
 */
@SharedRedis
@SlowTest
class OfferedRateTests extends MockMvcOnTestRedis {

	@Autowired
	StandaloneRedis server;

	@Test
	void aLoopAtTwoThousandASecondTakesFiveSecondsForTenThousandCommands() throws Exception {
		String body = this.mvc.perform(get("/loopset/10000?rate=2000"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.verified").value(10000))
			.andExpect(jsonPath("$.offeredRate.asked").value(2000))
			.andExpect(jsonPath("$.offeredRate.latencyFrom").value("intended send time"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		// Never faster than asked: unpaced, this loop takes a tenth of the time. Later by
		// what a busy machine holds it up (the test JVMs share two cores: 6.6 s once),
		// and then the answer says the rate was not held.
		assertThat(JsonPath.<Double>read(body, "$.elapsedMillis")).isGreaterThanOrEqualTo(4950.0);
		assertHeldSaysWhetherItKeptUp(body, 2000);
	}

	private static void assertHeldSaysWhetherItKeptUp(String body, int asked) {
		double achieved = JsonPath.<Double>read(body, "$.offeredRate.achieved");
		assertThat(JsonPath.<Boolean>read(body, "$.offeredRate.held"))
			.as("held at %.0f of %d a second", achieved, asked)
			.isEqualTo(achieved >= 0.95 * asked);
	}

	@Test
	void aPipelineAtAFixedRateSendsABatchEveryBatchSizeOverRate() throws Exception {
		// 20 batches of 100 at 1,000 a second: one batch every 0.1 s, 2 s in all.
		String body = this.mvc.perform(get("/pipeset/2000?batchSize=100&rate=1000"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.verified").value(2000))
			.andReturn()
			.getResponse()
			.getContentAsString();
		// The last batch leaves at 1.9 s, never before.
		assertThat(JsonPath.<Double>read(body, "$.elapsedMillis")).isGreaterThanOrEqualTo(1850.0);
		assertHeldSaysWhetherItKeptUp(body, 1000);
	}

	@Test
	void aStallShowsInTheLatencyOfEveryCommandItHeldUp() throws Exception {
		RedisClient client = RedisClient.create(RedisURI.create(this.server.host(), this.server.port()));
		try (StatefulRedisConnection<String, String> admin = client.connect()) {
			CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> {
				try {
					return this.mvc.perform(get("/loopset/2000?rate=500"))
						.andExpect(status().isOk())
						.andReturn()
						.getResponse()
						.getContentAsString();
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			// Once the timed pass is under way, Redis stops answering for 300 ms.
			await().atMost(Duration.ofSeconds(30)).until(() -> admin.sync().exists("pipelining-lab:key:500") == 1);
			admin.sync().clientPause(300);
			String body = run.join();
			// 300 ms at 500 a second held up some 150 commands, 7% of the run: each
			// waited from when it was due, so p99 shows the stall (timed from when each
			// really left, only the one command that met it would). A slow rate, so even
			// a busy machine catches up at once and the median stays small.
			assertThat(JsonPath.<Double>read(body, "$.latency.p99")).isGreaterThan(100.0);
			assertThat(JsonPath.<Double>read(body, "$.latency.p50")).isLessThan(50.0);
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	@Test
	void aRateOutsideItsBoundsIsABadRequest() throws Exception {
		this.mvc.perform(get("/loopset/10?rate=0"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("rate"));
	}

}
