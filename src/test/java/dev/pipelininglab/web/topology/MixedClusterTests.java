package dev.pipelininglab.web.topology;

import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;

/**
 * {@code op=mixed} on 3 masters: a GET reads a key its cycle's SET wrote, which hashes to
 * the same slot, so even the pipeline split by master keeps each GET behind its SET and
 * hits.
 */
@SlowTest
@SharedRedis(RedisTopology.CLUSTER)
class MixedClusterTests extends MockMvcOnTestRedis {

	@Test
	void everyPerItemVariantIncludingPipelinedByNodeHitsWhatItWroteOnACluster() throws Exception {
		okBody("/compare/mixed/2200?ratio=1:10&batchSize=110&repeat=1"
				+ "&variants=loop,pipelined,pipelined-by-node,async,reactive,jedis-loop",
				jsonPath("$.results[*].variant").value(contains(is("loop"), startsWith("pipelined-"),
						is("pipelined-by-node"), startsWith("async"), is("reactive"), is("jedis-loop"))),
				jsonPath("$.results[*].mix.sets").value(everyItem(is(200))),
				jsonPath("$.results[*].hits").value(everyItem(is(2000))),
				jsonPath("$.results[*].misses").value(everyItem(is(0))),
				jsonPath("$.results[*].verified").value(everyItem(is(200))));
	}

}
