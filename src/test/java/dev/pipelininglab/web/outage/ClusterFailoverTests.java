package dev.pipelininglab.web.outage;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SlowTest;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A master of a cluster of the test's own dies: while its replica takes over, every
 * request answers within the Redis timeout (200, or a 503 problem); once the replica
 * serves the slots, the next pipelined run over all slots succeeds.
 */
// The app's own topology refresh settings (application.yml): the outage measured is the
// one users get.
@OwnRedis(RedisTopology.CLUSTER)
@SlowTest
class ClusterFailoverTests extends MockMvcThroughFailover {

	private static final Logger log = LoggerFactory.getLogger(ClusterFailoverTests.class);

	@Autowired
	ClusterRedis cluster;

	@Autowired
	LettuceConnectionFactory factory;

	@Test
	void pipelinesOverAllSlotsSurviveAMasterDying() throws Exception {
		FailoverProbe.writeDemoData(this.mvc);
		RedisServerProcess dead = this.cluster.nodes().get(0);
		RedisServerProcess heir = this.cluster.nodes().get(3);
		FailoverProbe probe = new FailoverProbe(this.mvc, List.of("/pipeset/2000", "/pipeget/2000",
				"/compare/set/2000?variants=async,multi-key", "/loopget/20", "/piperpop/100"));

		long killed = System.nanoTime();
		Outages.kill(dead);
		CompletableFuture<Void> healthy = CompletableFuture
			.runAsync(() -> this.cluster.awaitHealthy(Duration.ofSeconds(30)));
		probe.until(healthy);
		healthy.join();
		Duration promoted = Duration.ofNanos(System.nanoTime() - killed);
		// The servers agree; now the app's client, which refreshes its view of the slots
		// every second (and on reconnects and redirects). A pipelined write:
		// executePipelined runs on the pooled route, whose client follows the promotion
		// on its own refresh, up to a second after the loops' shared one.
		FailoverProbe.Outcome recovered = probe.untilAnswer(
				(outcome) -> outcome.status() == 200 && outcome.uri().startsWith("/pipeset"), Duration.ofSeconds(15));
		Duration recoveredAfter = Duration.ofNanos(System.nanoTime() - killed);
		await().atMost(Duration.ofSeconds(10)).until(() -> clientSees(heir, dead));
		Duration clientCaughtUp = Duration.ofNanos(System.nanoTime() - killed);

		String next = probe
			.pipelinesAgain(jsonPath("$.keysPerNode['" + heir.host() + ":" + heir.port() + "']").isNumber());

		log.info(
				"Cluster failover: killed master {}; replica {} served its slots after {} ms, the app's client saw it"
						+ " after {} ms. Requests meanwhile: {}\nNext pipelined run over all slots: {}",
				dead.port(), heir.port(), promoted.toMillis(), clientCaughtUp.toMillis(), probe.report(), next);
		FailoverProbe.logTimings(log, "cluster", "cluster-node-timeout", promoted, recoveredAfter);
		assertThat(recovered.status()).as("a write succeeded within 15 s of the promotion").isEqualTo(200);
		probe.assertAllAnsweredWithin(ANSWER_BOUND);
	}

	/** Whether the app's cluster client routes {@code dead}'s slots to {@code heir}. */
	private boolean clientSees(RedisServerProcess heir, RedisServerProcess dead) {
		boolean heirServes = false;
		for (RedisClusterNode node : ((RedisClusterClient) this.factory.getRequiredNativeClient()).getPartitions()) {
			boolean servesSlots = node.is(NodeFlag.UPSTREAM) && !node.hasNoSlots();
			if (node.getUri().getPort() == dead.port() && servesSlots) {
				return false;
			}
			heirServes |= node.getUri().getPort() == heir.port() && servesSlots;
		}
		return heirServes;
	}

}
