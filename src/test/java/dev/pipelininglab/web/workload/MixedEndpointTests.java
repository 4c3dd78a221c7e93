package dev.pipelininglab.web.workload;

import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code op=mixed}: the comparison sends the same SET and GET sequence in every per-item
 * variant, reports the SETs and GETs apart with their hits, verifies every key a SET
 * wrote, and skips the variants that cannot keep the commands interleaved.
 */
@SpringBootTest
@SharedRedis
@AutoConfigureMockMvc
class MixedEndpointTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	StandaloneRedis redis;

	@Test
	void compareMixedReportsSetsAndGetsApartInEveryPerItemVariant() throws Exception {
		this.redis.flushAll();
		this.mvc
			.perform(get("/compare/mixed/2200?ratio=1:10&batchSize=110&repeat=1"
					+ "&variants=loop,pipelined,async,transaction,reactive,multi-key,script,jedis-loop"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.results[*].variant").value(contains(is("loop"), startsWith("pipelined-"),
					startsWith("async"), is("transaction"), is("reactive"), is("jedis-loop"))))
			.andExpect(jsonPath("$.results[*].mix.ratio").value(everyItem(is("1:10"))))
			.andExpect(jsonPath("$.results[*].mix.sets").value(everyItem(is(200))))
			.andExpect(jsonPath("$.results[*].mix.gets").value(everyItem(is(2000))))
			.andExpect(jsonPath("$.results[*].hits").value(everyItem(is(2000))))
			.andExpect(jsonPath("$.results[*].misses").value(everyItem(is(0))))
			.andExpect(jsonPath("$.results[*].written").value(everyItem(is(200))))
			.andExpect(jsonPath("$.results[*].verified").value(everyItem(is(200))))
			.andExpect(jsonPath("$.results[0].mix.latencyByCommand.SET.samples").value(200))
			.andExpect(jsonPath("$.results[0].mix.latencyByCommand.GET.samples").value(2000))
			.andExpect(jsonPath("$.results[0].mix.latencyNote").doesNotExist())
			.andExpect(jsonPath("$.results[1].mix.latencyByCommand").doesNotExist())
			.andExpect(jsonPath("$.results[1].mix.latencyNote").value(containsString("no latency per command")))
			.andExpect(jsonPath("$.skipped[*].variant").value(contains("multi-key", "script")))
			.andExpect(jsonPath("$.skipped[0].reason").value(containsString("interleaved")))
			.andExpect(jsonPath("$.skipped[1].reason").value(containsString("interleaved")));
	}

	@Test
	void loopAndPipeMixedRunWithTheRatioAsked() throws Exception {
		this.redis.flushAll();
		this.mvc.perform(get("/pipemixed/800?ratio=3:5&batchSize=100"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.operation").value("mixed"))
			.andExpect(jsonPath("$.mix.sets").value(300))
			.andExpect(jsonPath("$.mix.gets").value(500))
			.andExpect(jsonPath("$.verified").value(300));
		this.mvc.perform(get("/loopmixed/110"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.mix.ratio").value("1:10"))
			.andExpect(jsonPath("$.mix.sets").value(10))
			.andExpect(jsonPath("$.hits").value(100));
	}

	@Test
	void postRunsTakesOpMixedWithItsRatio() throws Exception {
		this.mvc
			.perform(post("/runs").contentType(MediaType.APPLICATION_JSON)
				.content("{\"operation\":\"mixed\",\"mode\":\"pipelined\",\"count\":110,\"ratio\":\"1:x\"}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("ratio"));
		this.mvc
			.perform(post("/runs").contentType(MediaType.APPLICATION_JSON)
				.content("{\"operation\":\"set\",\"mode\":\"pipelined\",\"count\":110,\"ratio\":\"1:10\"}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("ratio"));
		this.mvc
			.perform(post("/runs").contentType(MediaType.APPLICATION_JSON)
				.content("{\"operation\":\"mixed\",\"mode\":\"pipelined\",\"count\":110,\"ratio\":\"1:1\"}"))
			.andExpect(status().isAccepted());
	}

}
