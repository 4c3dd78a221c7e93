package dev.pipelininglab.reliability;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With room for one request on Redis, a second one waits its turn and, if the first takes
 * longer than the configured wait, is told so with a 429 problem and Retry-After; health
 * and the page never queue.
 */
@SpringBootTest(properties = { "lab.local-redis.enabled=false", "lab.admission.max-concurrent=1",
		"lab.admission.max-wait=300ms" })
@AutoConfigureMockMvc
class AdmissionLimitTests {

	@Autowired
	MockMvc mvc;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServers.standalone().addTo(registry);
	}

	@Test
	void aSecondRunWhileTheOnlySlotIsTakenIsA429WithRetryAfter() throws Exception {
		StandaloneRedis redis = RedisTestServers.standalone();
		redis.flushAll();
		CompletableFuture<MockHttpServletResponse> longRun = CompletableFuture.supplyAsync(() -> {
			try {
				return this.mvc.perform(get("/loopset/30000")).andReturn().getResponse();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		try (Admin admin = Admin.connect(redis.host(), redis.port())) {
			// The loop writes its keys in order: key 100 there means the run holds the
			// only slot.
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(5))
				.until(() -> admin.sync().exists("pipelining-lab:key:100") == 1);
		}
		this.mvc.perform(get("/pipeping/10"))
			.andExpect(status().isTooManyRequests())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(header().string("Retry-After", "1"))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:too-busy"))
			.andExpect(jsonPath("$.status").value(429));
		this.mvc.perform(get("/actuator/health")).andExpect(status().isOk());
		assertThat(longRun.get(120, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
		this.mvc.perform(get("/pipeping/10")).andExpect(status().isOk());
	}

}
