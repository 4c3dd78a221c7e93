package dev.pipelininglab.web.topology;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestContextAnnotationUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * What every endpoint must do to a real Redis, checked on the Redis state and not only on
 * the HTTP answer. Each topology runs the same contract through a subclass that points
 * the app at its own servers. The checks read through the app's own template, so with
 * replica reads they first let the replicas catch up, as the app does.
 */
abstract class EndpointContract extends MockMvcOnTestRedis {

	/** What every answer must name as its topology: standalone, sentinel or cluster. */
	String topology() {
		return TestContextAnnotationUtils.findMergedAnnotation(getClass(), SharedRedis.class)
			.value()
			.name()
			.toLowerCase(Locale.ROOT);
	}

	@Test
	void pipelinedSetLeavesEveryKeyWithItsValue() throws Exception {
		this.mvc.perform(get("/pipeset/1000?batchSize=300&sample=3"))
			.andExpect(status().isOk())
			.andExpect(content().contentType(MediaType.APPLICATION_JSON))
			.andExpect(jsonPath("$.operation").value("set"))
			.andExpect(jsonPath("$.mode").value("pipelined"))
			.andExpect(jsonPath("$.count").value(1000))
			.andExpect(jsonPath("$.batchSize").value(300))
			.andExpect(jsonPath("$.batches").value(4))
			.andExpect(jsonPath("$.written").value(1000))
			.andExpect(jsonPath("$.verified").value(1000))
			.andExpect(jsonPath("$.sample.length()").value(3))
			.andExpect(jsonPath("$.elapsedMillis").isNumber())
			.andExpect(jsonPath("$.opsPerSecond").isNumber())
			.andExpect(jsonPath("$.flushPolicy").isString())
			.andExpect(jsonPath("$.topology").value(topology()))
			// Only a cluster spreads keys over nodes.
			.andExpect(topology().equals("cluster") ? jsonPath("$.keysPerNode").isMap()
					: jsonPath("$.keysPerNode").doesNotExist());
		assertThat(demoKeys()).hasSize(1000);
		assertThat(values(0, 1000)).isEqualTo(expectedValues(0, 1000));
	}

	/**
	 * Replicas replaying writes, sentinels' and replicas' own traffic, topology refreshes
	 * and the lab's INFO calls are bookkeeping, not another client.
	 */
	@Test
	void aRunOnAQuietRedisIsNotFlaggedAsMeasuringAnotherClient() throws Exception {
		for (String op : List.of("set", "get")) {
			String compare = this.mvc
				.perform(get("/compare/" + op
						+ "/4000?batchSize=400&variants=loop,pipelined,multi-key,multi-key-hashtag,script,async"))
				.andExpect(status().isOk())
				.andReturn()
				.getResponse()
				.getContentAsString();
			System.out
				.println("[foreign] " + topology() + " " + op + ": " + JsonPath.read(compare, "$.results[*].variant")
						+ " " + JsonPath.read(compare, "$.results[*].server.commands"));
			assertThat(JsonPath.<List<Object>>read(compare, "$.results[*].foreignCommands")).as(op).isEmpty();
		}
	}

	@Test
	void loopSetWritesTheSameKeysAndValuesAsThePipeline() throws Exception {
		okBody("/loopset/200", jsonPath("$.mode").value("loop"), jsonPath("$.batchSize").value(1),
				jsonPath("$.batches").value(200), jsonPath("$.verified").value(200));
		Set<String> afterLoop = demoKeys();
		this.testRedis.flushAll();
		this.mvc.perform(get("/pipeset/200")).andExpect(status().isOk());
		assertThat(demoKeys()).isEqualTo(afterLoop).hasSize(200);
		assertThat(values(0, 200)).isEqualTo(expectedValues(0, 200));
	}

	@Test
	void setWithTtlExpiresKeys() throws Exception {
		this.mvc.perform(get("/pipeset/50?ttl=300")).andExpect(status().isOk());
		this.mvc.perform(get("/loopset/60?ttl=300")).andExpect(status().isOk());
		for (long i : new long[] { 0, 49, 59 }) {
			assertThat(read(() -> this.redis.getExpire(this.keys.key(i)))).isBetween(1L, 300L);
		}
	}

	@Test
	void getsHitWhatSetWroteAndMissTheRest() throws Exception {
		this.mvc.perform(get("/pipeset/500")).andExpect(status().isOk());
		okBody("/pipeget/800?batchSize=250&sample=2", jsonPath("$.hits").value(500), jsonPath("$.misses").value(300),
				jsonPath("$.sample[0]").value("value-0"), jsonPath("$.sample[1]").value("value-1"));
		okBody("/loopget/700", jsonPath("$.hits").value(500), jsonPath("$.misses").value(200));
	}

	@Test
	void rpopShortensTheDemoListByWhatItPopped() throws Exception {
		okBody("/listinput/1000?batchSize=400", jsonPath("$.operation").value("rpush"),
				jsonPath("$.written").value(1000));
		assertThat(listSize()).isEqualTo(1000);
		okBody("/piperpop/300?sample=1", jsonPath("$.popped").value(300), jsonPath("$.empty").value(0),
				jsonPath("$.sample[0]").value("value-999"));
		assertThat(listSize()).isEqualTo(700);
		okBody("/looprpop/800", jsonPath("$.popped").value(700), jsonPath("$.empty").value(100));
		assertThat(listSize()).isZero();
	}

	@Test
	void compareRunsEveryVariantOnTheSameKeysAndReportsSpeedups() throws Exception {
		String body = okBody("/compare/set/2000?batchSize=500", jsonPath("$.operation").value("set"),
				jsonPath("$.count").value(2000), jsonPath("$.results[0].mode").value("loop"),
				jsonPath("$.results[0].speedup").value(1.0));
		List<String> variants = JsonPath.read(body, "$.results[*].variant");
		assertThat(variants).contains("loop", "pipelined-flush-each-command", "pipelined-flush-on-close",
				"pipelined-buffered-500", "multi-key", "async");
		List<Integer> verified = JsonPath.read(body, "$.results[*].verified");
		assertThat(verified).hasSameSizeAs(variants).containsOnly(2000);
		List<Double> speedups = JsonPath.read(body, "$.results[*].speedup");
		assertThat(speedups).hasSameSizeAs(variants).allSatisfy((speedup) -> assertThat(speedup).isPositive());
		// The hash-tag variant (cluster only; skipped elsewhere) writes the same values
		// under keys of its own.
		List<KeySpace> layouts = variants.contains("multi-key-hashtag") ? List.of(this.keys, this.keys.hashTagged())
				: List.of(this.keys);
		assertThat(demoKeys()).hasSize(2000 * layouts.size());
		for (KeySpace layout : layouts) {
			assertThat(values(layout, 0, 2000)).isEqualTo(expectedValues(layout, 0, 2000));
		}
	}

	@Test
	void compareGetRpopAndPingStartEachVariantFromTheSameState() throws Exception {
		String get = okBody("/compare/get/1500?batchSize=500&repeat=2", jsonPath("$.results[0].repeat").value(2),
				jsonPath("$.results[0].repeatMillis.length()").value(2));
		assertThat(JsonPath.<List<Integer>>read(get, "$.results[*].hits")).hasSizeGreaterThanOrEqualTo(5)
			.containsOnly(1500);
		String rpop = okBody("/compare/rpop/1500?batchSize=500");
		assertThat(JsonPath.<List<String>>read(rpop, "$.results[*].variant")).startsWith("loop").contains("multi-key");
		assertThat(JsonPath.<List<Integer>>read(rpop, "$.results[*].popped")).hasSizeGreaterThanOrEqualTo(5)
			.containsOnly(1500);
		assertThat(JsonPath.<List<Integer>>read(rpop, "$.results[*].empty")).containsOnly(0);
		String ping = okBody("/compare/ping/1000", jsonPath("$.skipped[?(@.variant == 'multi-key')].reason").exists());
		assertThat(JsonPath.<List<Integer>>read(ping, "$.results[*].pongs")).containsOnly(1000);
	}

	/**
	 * Through the latency relays a loop pays the added round trip on every command, so no
	 * command may have reached a node (master, replica, or one a sentinel or the cluster
	 * announced) around them; a pipeline pays it about once per batch.
	 */
	@Test
	void anAddedRoundTripIsPaidByEveryLoopCommandAndOncePerPipeline() throws Exception {
		int count = 100;
		double rtt = 5;
		String body = okBody("/compare/get/" + count + "?rtt=5&variants=loop,pipelined&sample=0",
				jsonPath("$.topology").value(topology()), jsonPath("$.results[0].variant").value("loop"),
				jsonPath("$.results[*].addedRttMillis")
					.value(org.hamcrest.Matchers.everyItem(org.hamcrest.Matchers.equalTo(rtt))));
		assertThat(JsonPath.<List<Integer>>read(body, "$.results[*].hits")).containsOnly(count);
		assertThat(JsonPath.<List<Double>>read(body, "$.results[*].measuredRttMillis"))
			.allSatisfy((millis) -> assertThat(millis).isGreaterThanOrEqualTo(rtt * 0.95));
		double loop = JsonPath.<Double>read(body, "$.results[0].elapsedMillis");
		double pipelined = JsonPath.<Double>read(body, "$.results[1].elapsedMillis");
		assertThat(loop).isGreaterThanOrEqualTo(count * rtt * 0.95);
		assertThat(pipelined).isLessThan(loop / 5);
	}

	@Test
	void newOperationsVerifyEveryItemOnThisTopology() throws Exception {
		for (String op : List.of("incr", "hset", "sadd", "zadd", "lpush")) {
			String sized = op.equals("incr") ? "" : "&valueSize=40";
			String body = okBody(
					"/compare/" + op + "/400?batchSize=150&variants=loop,pipelined,multi-key,async" + sized,
					jsonPath("$.topology").value(topology()));
			List<Integer> verified = JsonPath.read(body, "$.results[*].verified");
			assertThat(verified).as(op).hasSize(op.equals("incr") ? 3 : 4).containsOnly(400);
			assertThat(JsonPath.<List<String>>read(body, "$.results[*].latency.per")).as(op)
				.containsExactly(op.equals("incr") ? new String[] { "command", "batch", "batch" }
						: new String[] { "command", "batch", "batch", "batch" });
		}
	}

	@Test
	void theServerSideCoversEveryNodeTheRunMayUse() throws Exception {
		String loop = okBody("/loopset/300");
		// Server-wide: the run's SETs and the INFO calls, and on a cluster its own
		// housekeeping.
		assertThat(JsonPath.<Integer>read(loop, "$.server.commands")).isGreaterThanOrEqualTo(300);
		assertThat(JsonPath.<Integer>read(loop, "$.server.reads")).isGreaterThanOrEqualTo(300);
		Map<String, Object> nodes = JsonPath.read(loop, "$.server");
		switch (topology()) {
			case "cluster" -> assertThat(JsonPath.<Map<String, Object>>read(loop, "$.server.nodes")).hasSize(6);
			case "sentinel" ->
				assertThat(JsonPath.<Map<String, Object>>read(loop, "$.server.nodes")).hasSizeGreaterThanOrEqualTo(2);
			default -> assertThat(nodes).doesNotContainKey("nodes");
		}
	}

	/**
	 * Replicas replay every write, so counting them would report each SET twice or three
	 * times; they stay in {@code nodes}, where each node's own truth is kept.
	 */
	@Test
	void writesCountOnTheMastersOnly() throws Exception {
		String loop = okBody("/loopset/300");
		// The 300 SETs, the lab's INFO calls and a little housekeeping: never a replica's
		// replay of the same 300.
		assertThat(JsonPath.<Integer>read(loop, "$.server.commands")).isBetween(300, 500);
		assertThat(JsonPath.<Integer>read(loop, "$.server.reads")).isBetween(300, 500);
	}

	@Test
	void pingEndpointsCountPongs() throws Exception {
		okBody("/pipeping/3000?batchSize=1000", jsonPath("$.pongs").value(3000), jsonPath("$.batches").value(3));
		okBody("/loopping/300", jsonPath("$.pongs").value(300));
	}

	@Test
	void perRequestFlushPolicyIsReportedAndLeavesTheDefaultAlone() throws Exception {
		okBody("/pipeset/500?flushPolicy=buffered-64", jsonPath("$.flushPolicy").value("buffered-64"),
				jsonPath("$.variant").value("pipelined-buffered-64"), jsonPath("$.verified").value(500));
		okBody("/pipeset/500", jsonPath("$.flushPolicy").value("buffered-500"));
	}

	@Test
	void sweepReportsOneVerifiedRunPerBatchSize() throws Exception {
		String body = okBody("/sweep/set/1000?batchSizes=1,10,100,1000");
		assertThat(JsonPath.<List<Integer>>read(body, "$.results[*].batchSize")).containsExactly(1, 10, 100, 1000);
		assertThat(JsonPath.<List<Integer>>read(body, "$.results[*].batches")).containsExactly(1000, 100, 10, 1);
		assertThat(JsonPath.<List<Integer>>read(body, "$.results[*].verified")).containsOnly(1000);
		assertThat(demoKeys()).hasSize(1000);
	}

	@Test
	void warmUpLeavesNoKeysBehind() throws Exception {
		this.mvc.perform(get("/pipeset/300")).andExpect(status().isOk());
		this.mvc.perform(get("/compare/rpop/300")).andExpect(status().isOk());
		assertThat(demoKeys()).hasSize(300).allSatisfy((key) -> assertThat(key).startsWith("pipelining-lab:key:"));
	}

	@Test
	void deleteKeysRemovesExactlyThePrefix() throws Exception {
		this.redis.opsForValue().set("someone-else:key", "keep me");
		this.redis.opsForValue().set("pipelining-labX:key:1", "keep me too");
		this.mvc.perform(get("/pipeset/2500")).andExpect(status().isOk());
		this.mvc.perform(get("/listinput/10")).andExpect(status().isOk());
		// Until both runs have left the live runs: a run's final record comes after its
		// answer, and the set of live runs is gone once it is empty.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> read(() -> this.redis.opsForZSet().zCard(this.keys.prefix() + ":runs:live")),
					(live) -> live == null || live == 0);
		this.mvc.perform(delete("/keys"))
			.andExpect(status().isOk())
			// The runs' keys, and their two records with the index listing them.
			.andExpect(jsonPath("$.deleted").value(2501 + 3))
			.andExpect(jsonPath("$.pattern").value("pipelining-lab:*"));
		assertThat(demoKeys()).isEmpty();
		assertThat(read(() -> this.redis.opsForValue().get("someone-else:key"))).isEqualTo("keep me");
		assertThat(read(() -> this.redis.opsForValue().get("pipelining-labX:key:1"))).isEqualTo("keep me too");
	}

	@Test
	void errorReplyIsA409NamingTheKey() throws Exception {
		this.redis.opsForValue().set(this.keys.listKey(), "not a list");
		for (String uri : new String[] { "/piperpop/10", "/looprpop/10", "/listinput/10" }) {
			this.mvc.perform(get(uri))
				.andExpect(status().isConflict())
				.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:redis-error-reply"))
				.andExpect(jsonPath("$.key").value(this.keys.listKey()))
				.andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("WRONGTYPE")));
		}
		assertThat(read(() -> this.redis.opsForValue().get(this.keys.listKey()))).isEqualTo("not a list");
	}

	/**
	 * Reads through the app's template once replicas that serve reads have everything
	 * written so far.
	 */
	<T> T read(java.util.function.Supplier<T> read) {
		this.replicas.await();
		return read.get();
	}

	long listSize() {
		return read(() -> this.redis.opsForList().size(this.keys.listKey()));
	}

	/**
	 * Every demo key, found with SCAN on every master (on a cluster, keys live on several
	 * nodes), the run records aside.
	 */
	Set<String> demoKeys() {
		this.replicas.await();
		return this.redis.execute((org.springframework.data.redis.core.RedisCallback<Set<String>>) (connection) -> {
			Set<String> found = new java.util.HashSet<>();
			ScanOptions options = ScanOptions.scanOptions().match(this.keys.scanPattern()).count(1000).build();
			if (connection instanceof org.springframework.data.redis.connection.RedisClusterConnection cluster) {
				for (var node : cluster.clusterGetNodes()) {
					if (node.isMaster()) {
						try (Cursor<byte[]> cursor = cluster.scan(node, options)) {
							cursor.forEachRemaining((key) -> found.add(new String(key)));
						}
					}
				}
			}
			else {
				try (Cursor<byte[]> cursor = connection.keyCommands().scan(options)) {
					cursor.forEachRemaining((key) -> found.add(new String(key)));
				}
			}
			found.removeIf((key) -> key.matches(".*:runs?(:.*)?"));
			return found;
		});
	}

	Map<String, String> values(long from, long to) {
		return values(this.keys, from, to);
	}

	Map<String, String> values(KeySpace layout, long from, long to) {
		List<String> names = LongStream.range(from, to).mapToObj(layout::key).toList();
		List<String> values = read(() -> this.redis.opsForValue().multiGet(names));
		Map<String, String> byKey = new java.util.HashMap<>();
		for (int i = 0; i < names.size(); i++) {
			byKey.put(names.get(i), values.get(i));
		}
		return byKey;
	}

	Map<String, String> expectedValues(long from, long to) {
		return expectedValues(this.keys, from, to);
	}

	Map<String, String> expectedValues(KeySpace layout, long from, long to) {
		Map<String, String> expected = new java.util.HashMap<>();
		LongStream.range(from, to).forEach((i) -> expected.put(layout.key(i), layout.value(i, 0)));
		return expected;
	}

}
