package dev.pipelininglab.web.outage;

import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.OwnRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.DocumentContext;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.SlowTest;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * Cluster, on nodes of the test's own: health is DOWN from the moment a master dies until
 * the routes runs use send its slots to the promoted replica, naming the node, so UP
 * means a run writes; the 503s name the unreachable node; once a master and its replica
 * are both gone the cluster is down, and a CLUSTERDOWN reply is reported as such, not as
 * every node unreachable.
 */
@OwnRedis(RedisTopology.CLUSTER)
@SlowTest
class ClusterOutageTests extends MockMvcThroughFailover {

	@Autowired
	ClusterRedis cluster;

	@Test
	void healthAndProblemsNameTheMissingNodeThenTheDownCluster() throws Exception {
		awaitAnswers(this.cluster, "/pipeset/1000");
		assertThat(health().read("$.status", String.class)).isEqualTo("UP");
		// By address, the same order on every call.
		List<String> masters = health().read("$.components.redis.details.masters", List.class);
		assertThat(masters).hasSize(3).isSorted();

		// Two of the masters serve key 0 and warm-up key 0 of a one-key loop run; the
		// third is the one to lose.
		List<Integer> used = List.of(master(this.keys.key(0)), master(this.keys.warmup().key(0)));
		int victim = java.util.stream.IntStream.range(0, 3).filter((m) -> !used.contains(m)).findFirst().orElseThrow();
		RedisServerProcess master = this.cluster.nodes().get(victim);
		RedisServerProcess replica = this.cluster.nodes().get(victim + 3);
		String masterAddress = master.host() + ":" + master.port();

		Outages.kill(master);
		DocumentContext down = health();
		assertThat(down.read("$.status", String.class)).isEqualTo("DOWN");
		assertThat(down.read("$.components.redis.details.cause", String.class)).isEqualTo("NODE_UNREACHABLE");
		assertThat(down.read("$.components.redis.details.unreachable", List.class)).containsExactly(masterAddress);
		DocumentContext problem = json(send("/pipeset/1000", 503));
		assertThat(problem.read("$.type", String.class)).isEqualTo(TYPES + "redis-node-unreachable");
		assertThat(problem.read("$.unreachable", List.class)).containsExactly(masterAddress);
		assertThat(problem.read("$.detail", String.class)).contains(masterAddress);

		this.cluster.awaitHealthy(Duration.ofSeconds(30));
		await().atMost(Duration.ofSeconds(20)).until(() -> "UP".equals(health().read("$.status", String.class)));
		assertThat(health().read("$.components.redis.details.masters", List.class))
			.contains(replica.host() + ":" + replica.port())
			.doesNotContain(masterAddress);
		// UP means the runs' own routes follow the promotion: pipelines (pooled route)
		// and loops (shared route) write at once, with no wait for their clients'
		// refresh.
		send("/pipeset/1000", 200);
		send("/loopset/100", 200);

		// The promoted replica dies too: its slots have no one left, and the other
		// masters answer CLUSTERDOWN once they notice (cluster-node-timeout 1 s).
		Outages.kill(replica);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> "fail".equals(clusterState(this.cluster.nodes().get(used.get(0)))));
		// While the clients' slot maps settle, a run may fail before any node replies:
		// the
		// answer is the cluster-down problem with the nodes' states, and it quotes the
		// reply once a node sends one.
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			DocumentContext clusterDown = json(send("/loopset/1", 503));
			assertThat(clusterDown.read("$.type", String.class)).isEqualTo(TYPES + "redis-cluster-down");
			return clusterDown.read("$.detail", String.class).contains("CLUSTERDOWN");
		});
		assertThat(health().read("$.status", String.class)).isEqualTo("DOWN");
		// The cluster's own verdict, not a node to wait for: no replica is left to take
		// over.
		DocumentContext verdict = health();
		assertThat(verdict.read("$.components.redis.details.cause", String.class)).isEqualTo("CLUSTER_DOWN");
		assertThat(verdict.read("$.components.redis.details.summary", String.class)).doesNotContain("takes over");
		// Not ready while nothing can be written, yet alive.
		this.mvc.perform(get("/actuator/health/readiness"))
			.andExpect(
					org.springframework.test.web.servlet.result.MockMvcResultMatchers.status().isServiceUnavailable());
		this.mvc.perform(get("/actuator/health/liveness"))
			.andExpect(org.springframework.test.web.servlet.result.MockMvcResultMatchers.status().isOk());
	}

	/** Index (0-2) of the initial master serving the key's slot. */
	private static int master(String key) {
		int slot = SlotHash.getSlot(key.getBytes(StandardCharsets.UTF_8));
		return (slot <= 5460) ? 0 : (slot <= 10922) ? 1 : 2;
	}

	private static String clusterState(RedisServerProcess node) {
		try (io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient
			.create(io.lettuce.core.RedisURI.create(node.host(), node.port())); var connection = client.connect()) {
			for (String line : connection.sync().clusterInfo().split("\r?\n")) {
				if (line.startsWith("cluster_state:")) {
					return line.substring("cluster_state:".length()).strip();
				}
			}
			return "unknown";
		}
	}

	private DocumentContext health() throws Exception {
		return json(this.mvc.perform(get("/actuator/health/redis-writes")).andReturn().getResponse());
	}

}
