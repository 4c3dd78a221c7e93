package dev.pipelininglab.web.outage;

import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.OwnRedis;
import java.time.Duration;

import com.jayway.jsonpath.DocumentContext;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.SentinelRedis;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * Sentinel, on a topology of the test's own: health is DOWN from the moment the master
 * dies until the app writes to the promoted replica, and says which master is missing;
 * the 503s name the master (with its address), or the sentinels when they are gone too;
 * every answer names the master in use.
 */
@OwnRedis(RedisTopology.SENTINEL)
@SlowTest
class SentinelOutageTests extends MockMvcThroughFailover {

	@Autowired
	SentinelRedis sentinel;

	@Test
	void healthAndProblemsNameTheMissingMasterThenTheSentinels() throws Exception {
		RedisServerProcess first = this.sentinel.master();
		String firstAddress = first.host() + ":" + first.port();
		assertThat(json(get200("/pipeset/1000")).read("$.master", String.class)).isEqualTo(firstAddress);
		DocumentContext up = health();
		assertThat(up.read("$.status", String.class)).isEqualTo("UP");
		assertThat(up.read("$.components.redis.details.master", String.class)).isEqualTo(firstAddress);

		Outages.kill(first);
		// At once, long before the sentinels agree the master is down.
		DocumentContext down = health();
		assertThat(down.read("$.status", String.class)).isEqualTo("DOWN");
		assertThat(down.read("$.components.redis.details.cause", String.class)).isEqualTo("MASTER_UNREACHABLE");
		assertThat(down.read("$.components.redis.details.master", String.class)).isEqualTo(firstAddress);
		this.mvc.perform(get("/actuator/health"))
			.andExpect(
					org.springframework.test.web.servlet.result.MockMvcResultMatchers.status().isServiceUnavailable());
		DocumentContext problem = json(send("/pipeset/1000", 503));
		assertThat(problem.read("$.type", String.class)).isEqualTo(TYPES + "redis-master-unreachable");
		assertThat(problem.read("$.master", String.class)).isEqualTo(firstAddress);
		assertThat(problem.read("$.detail", String.class)).contains(firstAddress)
			// No failover is under way yet: nothing to promise, and whole sentences.
			.doesNotContain("within seconds")
			.contains(". The app reconnects by itself.");
		this.mvc.perform(get("/actuator/health/readiness"))
			.andExpect(
					org.springframework.test.web.servlet.result.MockMvcResultMatchers.status().isServiceUnavailable());
		this.mvc.perform(get("/actuator/health/liveness"))
			.andExpect(org.springframework.test.web.servlet.result.MockMvcResultMatchers.status().isOk());

		RedisServerProcess second = this.sentinel.awaitNewMaster(first, Duration.ofSeconds(30));
		String secondAddress = second.host() + ":" + second.port();
		await().atMost(Duration.ofSeconds(20)).until(() -> "UP".equals(health().read("$.status", String.class)));
		assertThat(health().read("$.components.redis.details.master", String.class)).isEqualTo(secondAddress);
		assertThat(json(get200("/pipeset/1000")).read("$.master", String.class)).isEqualTo(secondAddress);
		assertThat(json(get200("/compare/set/100?variants=loop,pipelined")).read("$.results[*].master",
				java.util.List.class))
			.containsOnly(secondAddress);

		// Now the sentinels go too, and then the master: nothing can say where a master
		// is.
		this.sentinel.stopSentinels();
		Outages.kill(second);
		DocumentContext gone = json(send("/pipeset/1000", 503));
		assertThat(gone.read("$.type", String.class)).isEqualTo(TYPES + "redis-sentinels-unreachable");
		assertThat(gone.read("$.detail", String.class))
			.contains(this.sentinel.springProperties().get("spring.data.redis.sentinel.nodes").split(",")[0]);
		assertThat(health().read("$.components.redis.details.cause", String.class)).isEqualTo("SENTINELS_UNREACHABLE");
	}

	private DocumentContext health() throws Exception {
		return json(this.mvc.perform(get("/actuator/health/redis-writes")).andReturn().getResponse());
	}

	private MockHttpServletResponse get200(String uri) throws Exception {
		return send(uri, 200);
	}

}
