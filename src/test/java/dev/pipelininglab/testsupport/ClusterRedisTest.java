package dev.pipelininglab.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.pipelininglab.localredis.RedisServerBinary;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@SlowTest
class ClusterRedisTest {

	@Test
	void threeMastersWithOneReplicaEachServeAllSlots() {
		ClusterRedis cluster = RedisTestServers.cluster();

		assertThatClusterIsComplete(cluster);
		assertThat(cluster.masters()).hasSize(3);
		assertThat(cluster.replicas()).hasSize(3);
	}

	@Test
	void aClusterClientWritesAndReadsInEveryMastersSlotsAndFlushAllEmptiesThem() {
		ClusterRedis cluster = RedisTestServers.cluster();
		RedisClusterClient client = RedisClusterClient.create(uris(cluster));
		try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
			RedisAdvancedClusterCommands<String, String> commands = connection.sync();
			List<RedisClusterNode> masters = masters(client);
			for (RedisClusterNode master : masters) {
				String key = keyServedBy(master);

				assertThat(commands.set(key, "value-" + key)).isEqualTo("OK");
				assertThat(commands.get(key)).isEqualTo("value-" + key);
				assertThat(connection.getConnection(master.getNodeId()).sync().exists(key)).isOne();
			}

			cluster.flushAll();

			assertThat(commands.dbsize()).isZero();
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	@Test
	void springPropertiesListAllSixNodes() {
		ClusterRedis cluster = RedisTestServers.cluster();

		assertThat(cluster.springProperties()).containsOnlyKeys("spring.data.redis.cluster.nodes");
		assertThat(cluster.springProperties().get("spring.data.redis.cluster.nodes").split(","))
			.containsExactlyElementsOf(cluster.ports().stream().map((port) -> "127.0.0.1:" + port).toList());
	}

	@Test
	void theBundledRedis62FormsTheSameCluster() {
		try (ClusterRedis cluster = RedisTestServers.newCluster(RedisServerBinary.bundled())) {
			assertThatClusterIsComplete(cluster);
			assertThat(info(cluster, "server")).contains("redis_version:6.2.");
		}
	}

	private static void assertThatClusterIsComplete(ClusterRedis cluster) {
		RedisClusterClient client = RedisClusterClient.create(uris(cluster));
		try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
			assertThat(connection.sync().clusterInfo()).contains("cluster_state:ok", "cluster_slots_assigned:16384",
					"cluster_slots_ok:16384", "cluster_known_nodes:6", "cluster_size:3");
			List<RedisClusterNode> masters = masters(client);
			assertThat(masters).hasSize(3);
			assertThat(masters.stream().mapToInt((master) -> master.getSlots().size()).sum()).isEqualTo(16384);
			Map<String, Long> replicasPerMaster = client.getPartitions()
				.stream()
				.filter((node) -> node.is(NodeFlag.REPLICA))
				.collect(Collectors.groupingBy(RedisClusterNode::getSlaveOf, Collectors.counting()));
			assertThat(replicasPerMaster).containsOnlyKeys(masters.stream().map(RedisClusterNode::getNodeId).toList())
				.allSatisfy((master, replicas) -> assertThat(replicas).isOne());
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	private static String info(ClusterRedis cluster, String section) {
		return Topologies.on(cluster.nodes().get(0), (jedis) -> jedis.info(section));
	}

	private static List<RedisURI> uris(ClusterRedis cluster) {
		return cluster.ports().stream().map((port) -> RedisURI.create("127.0.0.1", port)).toList();
	}

	private static List<RedisClusterNode> masters(RedisClusterClient client) {
		return client.getPartitions().stream().filter((node) -> node.is(NodeFlag.UPSTREAM)).toList();
	}

	private static String keyServedBy(RedisClusterNode master) {
		for (int i = 0;; i++) {
			String key = "key-" + i;
			if (master.hasSlot(SlotHash.getSlot(key))) {
				return key;
			}
		}
	}

}
