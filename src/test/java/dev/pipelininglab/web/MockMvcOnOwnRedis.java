package dev.pipelininglab.web;

import java.time.Duration;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.StandaloneRedis;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The app through MockMvc on a Redis of the subclass's own ({@code @OwnRedis}), to kill,
 * pause or fill while requests go on: outage, failover and reliability tests. A subclass
 * names its topology, its own {@code @SpringBootTest} properties where it needs them, and
 * the servers it acts on ({@code StandaloneRedis}, {@code SentinelRedis},
 * {@code ClusterRedis}).
 */
@SpringBootTest
@AutoConfigureMockMvc
public abstract class MockMvcOnOwnRedis {

	/** What every problem type of the lab starts with. */
	protected static final String TYPES = "urn:pipelining-lab:problem:";

	@Autowired
	protected MockMvc mvc;

	@Autowired
	protected KeySpace keys;

	/** {@code GET uri}, checking it answered {@code status}. */
	protected MockHttpServletResponse send(String uri, int status) throws Exception {
		MockHttpServletResponse response = this.mvc.perform(get(uri)).andReturn().getResponse();
		assertThat(response.getStatus()).as(uri + ": " + response.getContentAsString()).isEqualTo(status);
		return response;
	}

	/**
	 * Lets a server the test paused answer again, and waits until {@code probe} answers
	 * 200: whatever the test left queued is answered, and the app is healthy again before
	 * the next test.
	 */
	protected void answerAgain(StandaloneRedis redis, String probe) {
		if (Outages.isPaused(redis.process())) {
			Outages.resume(redis.process());
		}
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> this.mvc.perform(get(probe)).andExpect(status().isOk()));
	}

	/**
	 * Waits until a cluster of the subclass's own, just started, is healthy and
	 * {@code GET uri} answers 200: its nodes may still be agreeing on the slots when the
	 * app's first connections go out.
	 */
	protected void awaitAnswers(ClusterRedis cluster, String uri) {
		cluster.awaitHealthy(Duration.ofSeconds(30));
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.mvc.perform(get(uri)).andReturn().getResponse().getStatus() == 200);
	}

	protected static DocumentContext json(MockHttpServletResponse response) throws Exception {
		return JsonPath.parse(response.getContentAsString());
	}

}
