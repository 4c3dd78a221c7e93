package dev.pipelininglab.web;

import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code op=mixed} on 3 masters: a GET reads a key its cycle's SET wrote, which hashes to
 * the same slot, so even the pipeline split by master keeps each GET behind its SET and
 * hits.
 */
@SpringBootTest
@SharedRedis(RedisTopology.CLUSTER)
@AutoConfigureMockMvc
class MixedClusterTests {

	@Autowired
	MockMvc mvc;

	@Test
	void everyPerItemVariantIncludingPipelinedByNodeHitsWhatItWroteOnACluster() throws Exception {
		this.mvc
			.perform(get("/compare/mixed/2200?ratio=1:10&batchSize=110&repeat=1"
					+ "&variants=loop,pipelined,pipelined-by-node,async,reactive,jedis-loop"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.results[*].variant").value(contains(is("loop"), startsWith("pipelined-"),
					is("pipelined-by-node"), startsWith("async"), is("reactive"), is("jedis-loop"))))
			.andExpect(jsonPath("$.results[*].mix.sets").value(everyItem(is(200))))
			.andExpect(jsonPath("$.results[*].hits").value(everyItem(is(2000))))
			.andExpect(jsonPath("$.results[*].misses").value(everyItem(is(0))))
			.andExpect(jsonPath("$.results[*].verified").value(everyItem(is(200))));
	}

}
