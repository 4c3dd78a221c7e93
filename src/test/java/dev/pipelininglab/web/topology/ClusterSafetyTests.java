package dev.pipelininglab.web.topology;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.jayway.jsonpath.DocumentContext;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnOwnRedis;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * On a cluster the preflight checks every master for its share of a run's keys: one small
 * master refuses a run the others would hold, naming that master, before anything is
 * written anywhere; the keys a run leaves carry the expiry on every master, and a run
 * over a key space larger than itself clears and expires only the keys it walked.
 */
@SlowTest
@SpringBootTest
@OwnRedis(RedisTopology.CLUSTER)
class ClusterSafetyTests extends MockMvcOnOwnRedis {

	@Autowired
	ClusterRedis cluster;

	@Test
	void everyMasterIsCheckedForItsShareAndEveryMastersKeysExpire() throws Exception {
		awaitAnswers(this.cluster, "/pipeset/3000");
		List<RedisServerProcess> masters = this.cluster.masters();
		assertThat(masters).hasSize(3);
		RedisClient client = RedisClient.create();
		try {
			for (RedisServerProcess master : masters) {
				try (StatefulRedisConnection<String, String> node = connect(client, master)) {
					KeyScanCursor<String> keys = node.sync()
						.scan(ScanArgs.Builder.matches(this.keys.prefix() + ":key:*").limit(10_000));
					assertThat(keys.getKeys()).as(master.toString()).isNotEmpty();
					assertThat(node.sync().ttl(keys.getKeys().get(0))).as(master.toString()).isBetween(3590L, 3600L);
				}
			}
			this.mvc.perform(delete("/keys"));

			RedisServerProcess small = masters.get(1);
			try (StatefulRedisConnection<String, String> node = connect(client, small)) {
				long used = NodeStats.usedMemory(small);
				node.sync().configSet("maxmemory-policy", "noeviction");
				node.sync().configSet("maxmemory", Long.toString(used + (4 << 20)));
				try {
					// About 10 MB of values per master: the two without a limit hold
					// theirs.
					DocumentContext problem = json(send("/pipeset/30000?valueSize=1000", 409));
					assertThat(problem.read("$.type", String.class)).isEqualTo(TYPES + "run-does-not-fit");
					assertThat(problem.read("$.node", String.class)).isEqualTo(small.host() + ":" + small.port());
					// Its share of the values (about 12 MB) and a round trip's worth of
					// buffers
					// (10,000 values), which a by-node pipeline can send one master
					// whole.
					assertThat(problem.read("$.estimateBytes", Long.class)).isBetween(18_000_000L, 30_000_000L);
					for (RedisServerProcess master : masters) {
						try (StatefulRedisConnection<String, String> other = connect(client, master)) {
							// The first run's final record may land after DELETE /keys:
							// records aside.
							assertThat(other.sync().keys("*")).as("nothing written on " + master)
								.allMatch(NodeStats::isRunRecord);
						}
					}

					node.sync().configSet("maxmemory-policy", "allkeys-lru");
					DocumentContext risk = json(send("/pipeset/30000?valueSize=1000", 409));
					assertThat(risk.read("$.type", String.class)).isEqualTo(TYPES + "eviction-risk");
					assertThat(risk.read("$.maxmemoryPolicy", String.class)).isEqualTo("allkeys-lru");
				}
				finally {
					node.sync().configSet("maxmemory", "0");
				}
			}
		}
		finally {
			client.shutdown();
		}
	}

	@Test
	void aRunOverAKeySpaceLargerThanItselfClearsAndExpiresOnlyTheKeysItWalkedOnEveryMaster() throws Exception {
		awaitAnswers(this.cluster, "/pipeset/10");
		List<RedisServerProcess> masters = this.cluster.masters();
		long before = cleanupCommands(masters);

		send("/pipeset/10?keys=1000000", 200);
		send("/compare/set/10?keys=1000000&variants=loop,pipelined", 200);

		assertThat(cleanupCommands(masters) - before).as("EXPIREs and UNLINKs on the masters").isLessThan(1_000);
	}

	@Test
	void aHashTaggedRunRefusedMidwayReadsBackTheTaggedKeysItWrote() throws Exception {
		awaitAnswers(this.cluster, "/pipeset/10");
		this.mvc.perform(delete("/keys"));
		RedisClient client = RedisClient.create();
		List<StatefulRedisConnection<String, String>> masters = this.cluster.masters()
			.stream()
			.map((master) -> connect(client, master))
			.toList();
		ExecutorService filler = Executors.newSingleThreadExecutor();
		try {
			// Past the preflight and a tenth into the timed pass, every master runs out
			// of memory: writes are refused (OOM), reads still answered.
			Future<?> full = filler.submit(() -> {
				await().atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(5))
					.until(() -> masters.stream().mapToLong((master) -> master.sync().dbsize()).sum() >= 20_000);
				masters.forEach((master) -> master.sync().configSet("maxmemory", "1"));
			});
			DocumentContext problem = json(
					send("/compare/set/300000?batchSize=100&rtt=1&variants=multi-key-hashtag", 409));
			full.get();
			long written = problem.read("$.written", Long.class);
			assertThat(written).isBetween(20_000L, 299_900L);
			// Read back where the run wrote, its hash tag's keys, not the plain demo
			// keys.
			assertThat(problem.read("$.verified", Long.class)).isEqualTo(written);
		}
		finally {
			filler.shutdownNow();
			masters.forEach((master) -> {
				master.sync().configSet("maxmemory", "0");
				master.close();
			});
			client.shutdown();
		}
	}

	private static long cleanupCommands(List<RedisServerProcess> masters) {
		return NodeStats.calls(masters, "EXPIRE") + NodeStats.calls(masters, "UNLINK")
				+ NodeStats.calls(masters, "DEL");
	}

	private static StatefulRedisConnection<String, String> connect(RedisClient client, RedisServerProcess node) {
		return client.connect(RedisURI.create(node.host(), node.port()));
	}

}
