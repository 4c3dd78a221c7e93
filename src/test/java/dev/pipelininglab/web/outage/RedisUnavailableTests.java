package dev.pipelininglab.web.outage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.RedisTestServers;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With nothing listening at the configured address the app still starts, answers a 503
 * problem naming the address within the connect timeout, and serves again once a Redis
 * appears there, without a restart. Meanwhile it reports itself not ready, but alive.
 */
@SpringBootTest(properties = { "lab.local-redis.enabled=false", "spring.data.redis.connect-timeout=2s" })
@AutoConfigureMockMvc
class RedisUnavailableTests {

	static int port;

	@Autowired
	MockMvc mvc;

	@DynamicPropertySource
	static void deadRedis(DynamicPropertyRegistry registry) {
		port = RedisServerProcess.freePort();
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", () -> port);
	}

	@Test
	void answers503WhileRedisIsDownAndRecoversWhenItComesBack() throws Exception {
		for (String uri : new String[] { "/pipeset/10", "/loopset/10", "/compare/get/10", "/listinput/5" }) {
			long start = System.nanoTime();
			this.mvc.perform(get(uri))
				.andExpect(status().isServiceUnavailable())
				.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:redis-unavailable"))
				.andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("127.0.0.1:" + port)))
				.andExpect(jsonPath("$.trace").doesNotExist());
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		}
		this.mvc.perform(get("/actuator/health")).andExpect(status().isServiceUnavailable());
		// Not ready (route no traffic here), yet alive (a restart would not bring Redis
		// back).
		this.mvc.perform(get("/actuator/health/readiness")).andExpect(status().isServiceUnavailable());
		this.mvc.perform(get("/actuator/health/liveness")).andExpect(status().isOk());

		Path dir = Files.createTempDirectory("redis-comes-back");
		try (RedisServerProcess redis = RedisServerProcess.start(RedisTestServers.binary(), port, dir)) {
			await().atMost(Duration.ofSeconds(15))
				.untilAsserted(() -> this.mvc.perform(get("/pipeset/10")).andExpect(status().isOk()));
			this.mvc.perform(get("/loopset/10")).andExpect(status().isOk()).andExpect(jsonPath("$.verified").value(10));
			this.mvc.perform(get("/actuator/health")).andExpect(status().isOk());
			this.mvc.perform(get("/actuator/health/readiness")).andExpect(status().isOk());
		}
	}

}
