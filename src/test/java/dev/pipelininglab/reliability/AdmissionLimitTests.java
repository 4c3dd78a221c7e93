package dev.pipelininglab.reliability;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.pipelininglab.testsupport.BackgroundRun;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.web.Admitted;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With room for one request on Redis, a second one waits its turn and, if the first takes
 * longer than the configured wait, is told so with a 429 problem and Retry-After; health
 * and the page never queue.
 */
@SlowTest
@SpringBootTest(properties = { "lab.admission.max-concurrent=1", "lab.admission.max-wait=300ms" })
@SharedRedis
@AutoConfigureMockMvc
class AdmissionLimitTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	StandaloneRedis redis;

	@Test
	void aSecondRunWhileTheOnlySlotIsTakenIsA429WithRetryAfter() throws Exception {
		this.redis.flushAll();
		// The loop writes its keys in order: key 100 there means the run holds the only
		// slot.
		BackgroundRun longRun = BackgroundRun.start(this.mvc, "/loopset/30000")
			.awaitKey(this.redis, "pipelining-lab:key:100");
		this.mvc.perform(get("/pipeping/10"))
			.andExpect(status().isTooManyRequests())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(header().string("Retry-After", "1"))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:too-busy"))
			.andExpect(jsonPath("$.status").value(429));
		// Every endpoint the catalogue lists as running on Redis waits at the same gate
		// (all at once, so each waits its 300 ms together).
		List<String> answered;
		ExecutorService each = Executors.newFixedThreadPool(Admitted.EXAMPLES.size());
		try {
			answered = Admitted.EXAMPLES.stream()
				.map((example) -> CompletableFuture.supplyAsync(() -> example + " " + statusOf(example), each))
				.toList()
				.stream()
				.map(CompletableFuture::join)
				.toList();
		}
		finally {
			each.shutdownNow();
		}
		assertThat(answered).hasSize(24).allMatch((answer) -> answer.endsWith(" 429"));
		this.mvc.perform(get("/actuator/health")).andExpect(status().isOk());
		// Busy, not broken: health says the slots are all taken.
		this.mvc.perform(get("/actuator/health/runs"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.components.runSlots.details.saturated").value(true))
			.andExpect(jsonPath("$.components.runSlots.details.inUse").value(1));
		assertThat(longRun.answer(Duration.ofSeconds(120)).getStatus()).isEqualTo(200);
		this.mvc.perform(get("/actuator/health/runs"))
			.andExpect(jsonPath("$.components.runSlots.details.saturated").value(false));
		this.mvc.perform(get("/pipeping/10")).andExpect(status().isOk());
	}

	private int statusOf(String example) {
		try {
			return this.mvc.perform(request(HttpMethod.valueOf(example.split(" ")[0]), example.split(" ")[1]))
				.andReturn()
				.getResponse()
				.getStatus();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
