package dev.pipelininglab.testsupport;

import java.time.Duration;

import dev.pipelininglab.localredis.RedisServerProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failover helpers work, and the topologies are tuned so that failovers are quick.
 */
@SlowTest
class FailoverTest {

	@Test
	void sentinelsPromoteTheReplicaWhenTheMasterDies() {
		try (SentinelRedis sentinel = RedisTestServers.newSentinel()) {
			RedisServerProcess oldMaster = sentinel.master();

			Outages.kill(oldMaster);
			RedisServerProcess newMaster = sentinel.awaitNewMaster(oldMaster, Duration.ofSeconds(30));

			assertThat(newMaster).isSameAs(sentinel.replica());
			sentinel.flushAll();
		}
	}

	@Test
	void theClusterPromotesAReplicaWhenAMasterDies() {
		try (ClusterRedis cluster = RedisTestServers.newCluster()) {
			RedisServerProcess oldMaster = cluster.nodes().get(0);

			Outages.kill(oldMaster);
			cluster.awaitHealthy(Duration.ofSeconds(30));

			assertThat(cluster.masters()).hasSize(3).doesNotContain(oldMaster).contains(cluster.nodes().get(3));
			cluster.flushAll();
		}
	}

}
