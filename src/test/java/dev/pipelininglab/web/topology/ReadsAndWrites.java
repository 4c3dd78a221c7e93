package dev.pipelininglab.web.topology;

import java.util.List;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.NodeStats;

import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Where commands went with {@code read-from: replica-preferred}, from the servers' own
 * counters.
 */
final class ReadsAndWrites {

	private ReadsAndWrites() {
	}

	/**
	 * Writes 500 keys, then reads and writes them through {@code mvc} and checks on the
	 * servers' counters that every GET went to a replica and every SET to a master.
	 */
	static void assertReadsFromReplicasAndWritesToMasters(MockMvc mvc, List<RedisServerProcess> masters,
			List<RedisServerProcess> replicas) throws Exception {
		mvc.perform(get("/pipeset/500")).andExpect(status().isOk());
		long masterGetsBefore = NodeStats.calls(masters, "get");
		long replicaGetsBefore = NodeStats.calls(replicas, "get");
		long masterSetsBefore = NodeStats.calls(masters, "set");

		mvc.perform(get("/pipeget/500")).andExpect(status().isOk()).andExpect(jsonPath("$.hits").value(500));
		mvc.perform(get("/loopget/500")).andExpect(status().isOk()).andExpect(jsonPath("$.hits").value(500));
		mvc.perform(get("/pipeset/300")).andExpect(status().isOk()).andExpect(jsonPath("$.verified").value(300));
		mvc.perform(get("/loopset/200")).andExpect(status().isOk()).andExpect(jsonPath("$.verified").value(200));

		// Every GET (the runs, their warm-ups, the read-back of the SETs) went to a
		// replica, none to a master.
		assertThat(NodeStats.calls(masters, "get")).isEqualTo(masterGetsBefore);
		assertThat(NodeStats.calls(replicas, "get") - replicaGetsBefore).isGreaterThanOrEqualTo(500 + 500 + 300 + 200);
		// The SETs reached the masters (a replica refuses writes with READONLY, so none
		// could have gone there).
		assertThat(NodeStats.calls(masters, "set") - masterSetsBefore).isGreaterThanOrEqualTo(300 + 200);
	}

}
