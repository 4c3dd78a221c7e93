package dev.pipelininglab.web.topology;

import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Transactions on a cluster: Redis refuses MULTI ... EXEC whose keys span hash slots, and
 * the lab answers that as a 409 problem that says why and how hash tags fix it; with one
 * hash tag the same batches run whole on one master.
 */
@SlowTest
@SharedRedis(RedisTopology.CLUSTER)
class ClusterTransactionTests extends MockMvcOnTestRedis {

	@Autowired
	ClusterRedis cluster;

	@Test
	void aTransactionWhoseKeysSpanSlotsIsAConflictNamingHashTags() throws Exception {
		this.mvc.perform(get("/compare/set/1000?batchSize=100&variants=transaction"))
			.andExpect(status().isConflict())
			.andExpect(content().contentType("application/problem+json"))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:cross-slot-transaction"))
			.andExpect(jsonPath("$.detail").value(allOf(anyOf(containsString("CROSSSLOT"), containsString("EXECABORT")),
					containsString("hash tag"), containsString("transaction-hashtag"))));
	}

	@Test
	void aTransactionOnOneHashTagRunsWholeOnOneMasterAndIsReadBack() throws Exception {
		long execsBefore = NodeStats.calls(this.cluster.masters(), "exec");
		this.mvc.perform(get("/compare/set/1000?batchSize=100&variants=transaction-hashtag"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.results[0].variant").value("transaction-hashtag"))
			.andExpect(jsonPath("$.results[0].verified").value(1000))
			.andExpect(jsonPath("$.results[0].slotsTouched").value(1));
		// Ten batches timed, each its own MULTI ... EXEC (the warm-up's come on top).
		assertThat(NodeStats.calls(this.cluster.masters(), "exec") - execsBefore).isGreaterThanOrEqualTo(10);
		this.mvc.perform(get("/compare/get/1000?batchSize=100&variants=transaction-hashtag"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.results[0].hits").value(1000));
	}

}
