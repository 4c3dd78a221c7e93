package dev.pipelininglab.web.topology;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.WarmUpProperties;
import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The endpoint contract on 3 masters + 3 replicas, reading from replicas as the cluster
 * profile does; plus what only a cluster has: keys spread over masters, multi-key
 * commands split per slot, hash tags.
 */
@SharedRedis(RedisTopology.CLUSTER)
@TestPropertySource(properties = "spring.data.redis.lettuce.read-from=replica-preferred")
@SlowTest
class ClusterEndpointTests extends EndpointContract {

	@Autowired
	ClusterRedis cluster;

	@Autowired
	WarmUpProperties warmUp;

	@Test
	void everyNodeIsReachedThroughItsOwnRelayAndReportsItsRoundTrip() throws Exception {
		String body = okBody("/pipeget/100?rtt=4&sample=0", jsonPath("$.addedRttMillis").value(4.0));
		Map<String, Double> byNode = JsonPath.read(body, "$.measuredRttMillisByNode");
		assertThat(byNode.keySet()).containsExactlyInAnyOrderElementsOf(
				this.cluster.nodes().stream().map((node) -> node.host() + ":" + node.port()).toList());
		assertThat(byNode.values()).allSatisfy((millis) -> assertThat(millis).isGreaterThanOrEqualTo(3.8));

		String direct = okBody("/pipeget/100?sample=0", jsonPath("$.addedRttMillis").doesNotExist());
		Map<String, Double> directByNode = JsonPath.read(direct, "$.measuredRttMillisByNode");
		// Without the relay the nodes answer faster: compared as medians, since one
		// node's
		// three PINGs can meet a busy core on a 2-core machine.
		assertThat(directByNode).hasSize(6);
		assertThat(median(directByNode.values())).isLessThan(median(byNode.values()));
	}

	@Test
	void whatHeldARunBackWeighsTheCpuOfEveryNode() throws Exception {
		String body = okBody("/pipeset/30000?sample=0", jsonPath("$.limitedBy.what").exists());
		Map<String, Object> byNode = JsonPath.read(body, "$.limitedBy.evidence.serverBusyByNode");
		assertThat(byNode.keySet()).as(body)
			.containsExactlyInAnyOrderElementsOf(
					this.cluster.nodes().stream().map((node) -> node.host() + ":" + node.port()).toList());
		assertThat(JsonPath.<Boolean>read(body, "$.limitedBy.evidence.serversOnThisMachine")).isTrue();
	}

	private static double median(java.util.Collection<Double> values) {
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	@Test
	void hundredThousandPipelinedKeysOverAllSlotsAreVerifiedAndCountedPerMaster() throws Exception {
		String set = okBody("/pipeset/100000?sample=2", jsonPath("$.written").value(100000),
				jsonPath("$.verified").value(100000), jsonPath("$.batches").value(10));
		Map<String, Integer> keysPerNode = JsonPath.read(set, "$.keysPerNode");
		// What each master really holds, asked of the master itself.
		assertThat(keysPerNode).hasSize(3);
		for (RedisServerProcess master : this.cluster.masters()) {
			assertThat(keysPerNode.get(master.host() + ":" + master.port()).longValue())
				.isEqualTo(NodeStats.dbsize(master))
				.isGreaterThan(30_000);
		}
		// 100,000 keys fall in all but about 1% of the 16,384 slots (16,224 for the
		// default prefix).
		assertThat(JsonPath.<Integer>read(set, "$.slotsTouched")).isEqualTo(slots(this.keys, 100_000))
			.isGreaterThan(16_000);

		this.mvc.perform(get("/pipeget/100000?sample=2"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.hits").value(100000))
			.andExpect(jsonPath("$.misses").value(0))
			.andExpect(jsonPath("$.keysPerNode").value(keysPerNode));
	}

	@Test
	void multiKeyCommandsAreSplitPerSlotExactlyAsReportedAndHashTaggedOnesAreNot() throws Exception {
		long msetsBefore = NodeStats.calls(this.cluster.masters(), "mset");
		String split = okBody("/compare/set/5000?batchSize=1000&variants=pipelined,multi-key",
				jsonPath("$.results[1].variant").value("multi-key"), jsonPath("$.results[1].verified").value(5000),
				jsonPath("$.results[1].note").value(containsString("CROSSSLOT")),
				jsonPath("$.results[0].commands").doesNotExist());
		long commands = JsonPath.<Number>read(split, "$.results[1].commands").longValue();
		// One MSET per slot per batch, as computed independently here, and as the masters
		// counted them (the warm-up pass on its own keys was split the same way).
		assertThat(commands).isEqualTo(perSlot(this.keys, 5000, 1000)).isGreaterThan(5 * 800);
		assertThat(NodeStats.calls(this.cluster.masters(), "mset") - msetsBefore)
			.isEqualTo(commands + perSlot(this.keys.warmup(), warmUpItems(5000), 1000));
		assertThat(JsonPath.<Map<String, Integer>>read(split, "$.results[1].keysPerNode").values()).hasSize(3)
			.allSatisfy((keys) -> assertThat(keys).isGreaterThan(1000));

		this.testRedis.flushAll();
		msetsBefore = NodeStats.calls(this.cluster.masters(), "mset");
		String tagged = okBody("/compare/set/5000?batchSize=1000&variants=multi-key-hashtag",
				jsonPath("$.results[0].variant").value("multi-key-hashtag"),
				jsonPath("$.results[0].verified").value(5000), jsonPath("$.results[0].commands").value(5),
				jsonPath("$.results[0].slotsTouched").value(1),
				jsonPath("$.results[0].note").value(containsString(KeySpace.HASH_TAG)));
		// One MSET per batch of the run and of its warm-up.
		assertThat(NodeStats.calls(this.cluster.masters(), "mset") - msetsBefore)
			.isEqualTo(5 + (warmUpItems(5000) + 999) / 1000);
		Map<String, Integer> perNode = JsonPath.read(tagged, "$.results[0].keysPerNode");
		assertThat(perNode.values()).containsExactlyInAnyOrder(5000, 0, 0);
		for (RedisServerProcess master : this.cluster.masters()) {
			assertThat(NodeStats.dbsize(master))
				.isEqualTo(perNode.get(master.host() + ":" + master.port()).longValue());
		}
	}

	@Test
	void aUniformWalkIsSplitPerSlotAsReportedAndEveryVariantVerifiesTheLastWrites() throws Exception {
		long msetsBefore = NodeStats.calls(this.cluster.masters(), "mset");
		String body = okBody("/compare/set/3000?keys=200&pattern=uniform&seed=5&batchSize=500"
				+ "&variants=pipelined,pipelined-by-node,multi-key");
		List<Number> distinct = JsonPath.read(body, "$.results[*].keySpace.distinctKeys");
		assertThat(JsonPath.<List<Number>>read(body, "$.results[*].verified")).hasSize(3).isEqualTo(distinct);
		long keys = distinct.get(0).longValue();
		assertThat(this.cluster.masters().stream().mapToLong(NodeStats::dbsize).sum()).isEqualTo(keys);
		// The walk's own keys per batch decide the MSETs; the warm-up walks none.
		long commands = JsonPath.<Number>read(body, "$.results[2].commands").longValue();
		assertThat(commands).isLessThanOrEqualTo(6 * Math.min(keys, 500));
		assertThat(NodeStats.calls(this.cluster.masters(), "mset") - msetsBefore)
			.isEqualTo(commands + perSlot(this.keys.warmup(), warmUpItems(3000), 500));
		assertThat(JsonPath.<List<Object>>read(body, "$.results[*].foreignCommands")).isEmpty();
	}

	@Test
	void pipelinesByNodeWriteEveryKeyExactlyAndEachMasterTakesItsOwnShareOfTheSets() throws Exception {
		Map<RedisServerProcess, Long> setsBefore = new java.util.LinkedHashMap<>();
		this.cluster.masters().forEach((master) -> setsBefore.put(master, NodeStats.calls(master, "set")));
		String set = okBody("/compare/set/20000?batchSize=1000&variants=pipelined-by-node",
				jsonPath("$.results[0].variant").value("pipelined-by-node"),
				jsonPath("$.results[0].written").value(20000), jsonPath("$.results[0].verified").value(20000),
				jsonPath("$.results[0].redirects").doesNotExist());
		Map<String, Integer> keysPerNode = JsonPath.read(set, "$.results[0].keysPerNode");
		for (RedisServerProcess master : this.cluster.masters()) {
			String address = master.host() + ":" + master.port();
			// The run's keys and the warm-up's (on keys of their own), each SET
			// on the master owning its slot: none went anywhere else. Beside them, the
			// marker ReplicaSync writes on each master before the read-back from
			// replicas.
			long owned = owned(this.keys, 20_000, master) + owned(this.keys.warmup(), warmUpItems(20_000), master);
			assertThat(NodeStats.calls(master, "set") - setsBefore.get(master)).as(address).isBetween(owned, owned + 2);
			assertThat(NodeStats.dbsize(master)).as(address)
				.isEqualTo(keysPerNode.get(address).longValue())
				.isGreaterThan(5_000);
		}

		String get = okBody("/compare/get/20000?batchSize=1000&variants=pipelined,pipelined-by-node",
				jsonPath("$.results[1].variant").value("pipelined-by-node"),
				jsonPath("$.summary").value(containsString("one pipeline per master")));
		assertThat(JsonPath.<List<Integer>>read(get, "$.results[*].hits")).containsExactly(20000, 20000);
		assertThat(JsonPath.<List<Integer>>read(get, "$.results[*].misses")).containsExactly(0, 0);
		assertThat(JsonPath.<List<String>>read(get, "$.results[1].sample")).startsWith(this.keys.value(0, 0));
	}

	@Test
	void pipelinesByNodeSayWhatTheyCannotSend() throws Exception {
		String body = okBody("/compare/incr/100?variants=pipelined,pipelined-by-node,jedis-pipelined-by-node",
				jsonPath("$.results[0].mode").value("pipelined"));
		assertThat(JsonPath.<List<String>>read(body, "$.skipped[*].variant")).containsExactly("pipelined-by-node",
				"jedis-pipelined-by-node");
		assertThat(JsonPath.<List<String>>read(body, "$.skipped[*].reason")).satisfiesExactly(
				(reason) -> assertThat(reason).contains("one key"), (reason) -> assertThat(reason).contains("Jedis"));
	}

	@Test
	void defaultComparisonShowsTheHashTagVariantAndSkipsTheScript() throws Exception {
		String body = okBody("/compare/get/3000?batchSize=1000",
				jsonPath("$.skipped[?(@.variant == 'script')].reason").exists(),
				jsonPath("$.summary").value(containsString("one pipeline per master")));
		assertThat(JsonPath.<List<String>>read(body, "$.results[*].variant")).contains("multi-key", "multi-key-hashtag",
				"pipelined-flush-on-close", "pipelined-by-node");
		assertThat(JsonPath.<List<Integer>>read(body, "$.results[*].hits")).containsOnly(3000);
		assertThat(JsonPath.<List<String>>read(body, "$.results[?(@.mode == 'multi-key')].note")).singleElement()
			.asString()
			.contains("MGET");
	}

	@Test
	void getsAreServedByReplicasAndWritesByMasters() throws Exception {
		List<RedisServerProcess> replicas = this.cluster.replicas();
		ReadsAndWrites.assertReadsFromReplicasAndWritesToMasters(this.mvc, this.cluster.masters(), replicas);
		// Each replica served some: Lettuce reads each slot from its own master's
		// replica.
		for (RedisServerProcess replica : replicas) {
			assertThat(NodeStats.calls(replica, "get")).isPositive();
		}
	}

	/**
	 * Keys 0 to count - 1 of {@code keys} whose slots {@code master} serves, asked of the
	 * master itself.
	 */
	/**
	 * The items the warm-up before a run sends: lab.warm-up.items, or the run's count
	 * when fewer (the tests' settings put jit-items no higher, and these batches reach it
	 * within the round trips allowed).
	 */
	private long warmUpItems(long count) {
		return Math.min(count, this.warmUp.items());
	}

	private static long owned(KeySpace keys, long count, RedisServerProcess master) {
		BitSet served = NodeStats.slots(master);
		long owned = 0;
		for (long i = 0; i < count; i++) {
			owned += served.get(SlotHash.getSlot(keys.key(i).getBytes(StandardCharsets.UTF_8))) ? 1 : 0;
		}
		return owned;
	}

	private static int slots(KeySpace keys, long count) {
		BitSet slots = new BitSet(SlotHash.SLOT_COUNT);
		for (long i = 0; i < count; i++) {
			slots.set(SlotHash.getSlot(keys.key(i).getBytes(StandardCharsets.UTF_8)));
		}
		return slots.cardinality();
	}

	/** MSETs a multi-key pass sends when each batch is split per slot. */
	private static long perSlot(KeySpace keys, long count, int batchSize) {
		long commands = 0;
		for (long from = 0; from < count; from += batchSize) {
			BitSet slots = new BitSet(SlotHash.SLOT_COUNT);
			for (long i = from; i < Math.min(count, from + batchSize); i++) {
				slots.set(SlotHash.getSlot(keys.key(i).getBytes(StandardCharsets.UTF_8)));
			}
			commands += slots.cardinality();
		}
		return commands;
	}

}
