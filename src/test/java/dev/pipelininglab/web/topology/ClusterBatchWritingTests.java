package dev.pipelininglab.web.topology;

import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code lab.pipeline.writes=per-flush} on a cluster: each node connection hands a flush
 * to Netty as one message. Every policy that buffers must still deliver every command to
 * the master of its slot, and replies must land on the right futures.
 */
@SlowTest
@SpringBootTest(properties = { "lab.pipeline.writes=per-flush" })
@AutoConfigureMockMvc
@SharedRedis(RedisTopology.CLUSTER)
class ClusterBatchWritingTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	KeySpace keys;

	@BeforeEach
	void startEmpty() {
		RedisTestServers.cluster().flushAll();
	}

	@Test
	void everyBufferingPolicyWritesAndReadsEveryKeyOnItsMaster() throws Exception {
		for (String policy : List.of("buffered-500", "flush-on-close", "buffered-7", "flush-each-command")) {
			// Flush-each-command hands each command over on its own, so the answer names
			// no way of writing.
			this.mvc.perform(get("/pipeset/30000?batchSize=10000&sample=0&flushPolicy=" + policy))
				.andExpect(status().isOk())
				.andExpect(policy.equals("flush-each-command") ? jsonPath("$.writes").doesNotExist()
						: jsonPath("$.writes").value("per-flush"))
				.andExpect(jsonPath("$.written").value(30000))
				.andExpect(jsonPath("$.verified").value(30000));
			String body = this.mvc.perform(get("/pipeget/30000?batchSize=10000&sample=3&flushPolicy=" + policy))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.hits").value(30000))
				.andReturn()
				.getResponse()
				.getContentAsString();
			// Replies matched to their own commands: the sample is the values of keys 0,
			// 1, 2.
			assertThat(JsonPath.<List<String>>read(body, "$.sample")).containsExactly(this.keys.value(0, 0),
					this.keys.value(1, 0), this.keys.value(2, 0));
		}
		long keysOnMasters = RedisTestServers.cluster().masters().stream().mapToLong(NodeStats::dbsize).sum();
		assertThat(keysOnMasters).isEqualTo(30000);
	}

}
