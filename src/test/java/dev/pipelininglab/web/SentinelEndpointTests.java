package dev.pipelininglab.web;

import java.util.List;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SentinelRedis;
import dev.pipelininglab.testsupport.SharedRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The endpoint contract on master + replica + 3 sentinels, reading from the replica as
 * the sentinel profile does.
 */
@SharedRedis(RedisTopology.SENTINEL)
@TestPropertySource(properties = "spring.data.redis.lettuce.read-from=replica-preferred")
class SentinelEndpointTests extends EndpointContract {

	@Autowired
	SentinelRedis sentinel;

	@Test
	void getsAreServedByTheReplicaAndWritesByTheMaster() throws Exception {
		RedisServerProcess master = this.sentinel.currentMaster();
		RedisServerProcess replica = this.sentinel.dataNodes()
			.stream()
			.filter((node) -> node != master)
			.findFirst()
			.orElseThrow();
		this.mvc.perform(get("/pipeset/500")).andExpect(status().isOk());
		long masterGets = NodeStats.calls(master, "get");
		long replicaGets = NodeStats.calls(replica, "get");
		long masterSets = NodeStats.calls(master, "set");

		this.mvc.perform(get("/pipeget/500")).andExpect(status().isOk()).andExpect(jsonPath("$.hits").value(500));
		this.mvc.perform(get("/loopget/500")).andExpect(status().isOk()).andExpect(jsonPath("$.hits").value(500));
		this.mvc.perform(get("/pipeset/300")).andExpect(status().isOk()).andExpect(jsonPath("$.verified").value(300));
		this.mvc.perform(get("/loopset/200")).andExpect(status().isOk()).andExpect(jsonPath("$.verified").value(200));

		ReadsAndWrites.assertServedBy(List.of(master), List.of(replica), masterGets, replicaGets, masterSets);
	}

}
