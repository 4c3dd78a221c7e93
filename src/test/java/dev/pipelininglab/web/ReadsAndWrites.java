package dev.pipelininglab.web;

import java.util.List;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.NodeStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where commands went, from the servers' own counters, after {@code /pipeget/500},
 * {@code /loopget/500}, {@code /pipeset/300} and {@code /loopset/200} with
 * {@code read-from: replica-preferred}.
 */
final class ReadsAndWrites {

	private ReadsAndWrites() {
	}

	static void assertServedBy(List<RedisServerProcess> masters, List<RedisServerProcess> replicas,
			long masterGetsBefore, long replicaGetsBefore, long masterSetsBefore) {
		// Every GET (the runs, their warm-ups, the read-back of the SETs) went to a
		// replica, none to a master.
		assertThat(NodeStats.calls(masters, "get")).isEqualTo(masterGetsBefore);
		assertThat(NodeStats.calls(replicas, "get") - replicaGetsBefore).isGreaterThanOrEqualTo(500 + 500 + 300 + 200);
		// The SETs reached the masters (a replica refuses writes with READONLY, so none
		// could have gone there).
		assertThat(NodeStats.calls(masters, "set") - masterSetsBefore).isGreaterThanOrEqualTo(300 + 200);
	}

}
