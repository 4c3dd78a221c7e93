package dev.pipelininglab.web;

import java.util.List;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SentinelRedis;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The endpoint contract on master + replica + 3 sentinels, reading from the replica as
 * the sentinel profile does.
 */
class SentinelEndpointTests extends EndpointContract {

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServers.sentinel().addTo(registry);
		registry.add("spring.data.redis.lettuce.read-from", () -> "replica-preferred");
	}

	@Override
	void flushTestServers() {
		RedisTestServers.sentinel().flushAll();
	}

	@Override
	String topology() {
		return "sentinel";
	}

	@Test
	void getsAreServedByTheReplicaAndWritesByTheMaster() throws Exception {
		SentinelRedis sentinel = RedisTestServers.sentinel();
		RedisServerProcess master = sentinel.currentMaster();
		RedisServerProcess replica = sentinel.dataNodes()
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
