package dev.pipelininglab.web.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Value sizes, redis-benchmark's commands, latency percentiles and request fan-out, on a
 * real standalone Redis; every write is checked on the Redis state, read with a template
 * of the test's own, not only on the answer.
 */
@SpringBootTest(properties = "lab.limits.max-batch-bytes=4194304")
@SharedRedis
@SlowTest
class WorkloadEndpointTests extends MockMvcOnTestRedis {

	private static final int MAX_VALUE_SIZE = 1_048_576;

	/**
	 * Each new operation with each variant that can run it, on its own, so the state it
	 * leaves is its own; values of 100 bytes, so every variant writes the same sized
	 * bytes.
	 */
	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("newOperationsAndTheirVariants")
	void everyVariantOfANewOperationLeavesExactlyWhatItSent(String op, String variant) throws Exception {
		int count = 300;
		String sized = op.equals("incr") ? "" : "&valueSize=100";
		String body = okBody("/compare/" + op + "/" + count + "?batchSize=120&variants=" + variant + sized,
				jsonPath("$.skipped").isEmpty(), jsonPath("$.results[0].variant").value(variant),
				jsonPath("$.results[0].written").value(count), jsonPath("$.results[0].verified").value(count),
				jsonPath("$.results[0].latency.p50").isNumber());
		if (!op.equals("incr")) {
			assertThat(JsonPath.<String>read(body, "$.results[0].note")).contains("one key");
			assertThat(JsonPath.<Integer>read(body, "$.results[0].payload.valueSize")).isEqualTo(100);
		}
		assertState(op, count, 100);
	}

	/**
	 * INCR has no multi-key form; HSET, SADD, ZADD and LPUSH run with every variant.
	 */
	static Stream<Arguments> newOperationsAndTheirVariants() {
		List<String> pipelines = List.of("loop", "pipelined-flush-each-command", "pipelined-flush-on-close",
				"pipelined-buffered-50");
		return Stream.of("incr", "hset", "sadd", "zadd", "lpush").flatMap((op) -> {
			List<String> variants = new ArrayList<>(pipelines);
			if (!op.equals("incr")) {
				variants.add("multi-key");
			}
			variants.addAll(List.of("script", "async"));
			return variants.stream().map((variant) -> Arguments.of(op, variant));
		});
	}

	@Test
	void incrHasNoMultiArgumentFormAndTheComparisonSaysSo() throws Exception {
		okBody("/compare/incr/100?variants=loop,multi-key", jsonPath("$.results.length()").value(1),
				jsonPath("$.skipped[0].variant").value("multi-key"),
				jsonPath("$.skipped[0].reason").value(org.hamcrest.Matchers.containsString("INCR")));
	}

	@Test
	void singleRunEndpointsOfTheNewOperationsWriteTheSameAsEachOther() throws Exception {
		for (String op : List.of("incr", "hset", "sadd", "zadd", "lpush")) {
			for (String mode : List.of("pipe", "loop")) {
				this.testRedis.flushAll();
				okBody("/" + mode + op + "/250?batchSize=100", jsonPath("$.operation").value(op),
						jsonPath("$.written").value(250), jsonPath("$.verified").value(250));
				assertState(op, 250, 0);
			}
		}
	}

	@Test
	void incrSingleRunsCountOnlyTheirOwnIncrements() throws Exception {
		okBody("/pipeincr/100", jsonPath("$.verified").value(100));
		okBody("/loopincr/40", jsonPath("$.verified").value(40));
		assertThat(this.redis.opsForValue().get(this.keys.counterKey())).isEqualTo("140");
	}

	/**
	 * A counter someone set to text: Redis refuses a single run's INCR on it, and the
	 * answer is the 409 every refused command gets (not a 500 from reading the counter
	 * before the run). A comparison starts every variant from an absent counter instead.
	 */
	@Test
	void incrOnACounterHoldingTextIsRefusedByRedisAsA409() throws Exception {
		this.redis.opsForValue().set(this.keys.counterKey(), "x");
		for (String uri : new String[] { "/pipeincr/10", "/loopincr/10" }) {
			this.mvc.perform(get(uri))
				.andExpect(status().isConflict())
				.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:redis-error-reply"))
				.andExpect(jsonPath("$.detail")
					.value(org.hamcrest.Matchers.containsString("not an integer or out of range. 0 commands")));
		}
		assertThat(this.redis.opsForValue().get(this.keys.counterKey())).isEqualTo("x");
	}

	@Test
	void smallestValueSizeIsOneByteDerivedFromTheItem() throws Exception {
		okBody("/pipeset/100?valueSize=1&sample=2", jsonPath("$.verified").value(100),
				jsonPath("$.payload.valueSize").value(1), jsonPath("$.payload.bytesPerSecond").isNumber(),
				jsonPath("$.sample[0]").value("v"));
		for (long i : new long[] { 0, 99 }) {
			assertThat(this.redis.opsForValue().get(this.keys.key(i))).isEqualTo("v");
		}
	}

	@Test
	void largestValueSizeIsWrittenAndVerifiedInFullInBatchesTheBudgetShrank() throws Exception {
		// 4 MiB budget in this test: four 1 MiB values per batch, not the ten asked for.
		okBody("/pipeset/10?valueSize=" + MAX_VALUE_SIZE + "&sample=1", jsonPath("$.verified").value(10),
				jsonPath("$.batchSize").value(4), jsonPath("$.batches").value(3),
				jsonPath("$.payload.batchSizeAsked").value(10), jsonPath("$.payload.maxBatchBytes").value(4194304),
				jsonPath("$.note").value(org.hamcrest.Matchers.containsString("lab.limits.max-batch-bytes")),
				jsonPath("$.sample[0]").value(org.hamcrest.Matchers.endsWith("(1048576 bytes)")));
		for (long i : new long[] { 0, 9 }) {
			String value = this.redis.opsForValue().get(this.keys.key(i));
			assertThat(value).hasSize(MAX_VALUE_SIZE).startsWith("value-" + i + "-");
			assertThat(value.getBytes(StandardCharsets.US_ASCII)).isEqualTo(this.keys.valueBytes(i, MAX_VALUE_SIZE));
		}
		okBody("/loophset/3?valueSize=" + MAX_VALUE_SIZE, jsonPath("$.verified").value(3));
	}

	@Test
	void sizedValuesDifferPerItemAndAreTheSameInEveryVariant() throws Exception {
		assertThat(this.keys.valueBytes(1, 64)).isNotEqualTo(this.keys.valueBytes(2, 64)).hasSize(64);
		assertThat(this.keys.valueBytes(7, 5000)).isEqualTo(this.keys.valueBytes(7, 5000));
		String body = okBody("/compare/set/200?valueSize=2000&batchSize=50");
		assertThat(JsonPath.<List<Integer>>read(body, "$.results[*].verified")).hasSizeGreaterThanOrEqualTo(5)
			.containsOnly(200);
		List<Map<String, Object>> gets = JsonPath
			.read(okBody("/compare/get/200?valueSize=2000&variants=loop,pipelined,multi-key,async"), "$.results[*]");
		assertThat(gets).hasSize(4).allSatisfy((result) -> assertThat(result.get("hits")).isEqualTo(200));
	}

	@Test
	void everyRunReportsLatencyPercentilesPerRoundTrip() throws Exception {
		checkOrdered(okBody("/loopset/200", jsonPath("$.latency.per").value("command"),
				jsonPath("$.latency.samples").value(200)));
		checkOrdered(okBody("/pipeget/1000?batchSize=100", jsonPath("$.latency.per").value("batch"),
				jsonPath("$.latency.samples").value(10)));
	}

	@Test
	void fanOutReportsPerRequestPercentilesForEveryVariant() throws Exception {
		String body = okBody("/compare/get/30?requests=200&variants=loop,pipelined,multi-key,async");
		List<Map<String, Object>> results = JsonPath.read(body, "$.results[*]");
		assertThat(results).hasSize(4);
		for (int i = 0; i < results.size(); i++) {
			String result = "$.results[" + i + "]";
			assertThat(JsonPath.<String>read(body, result + ".latency.per")).isEqualTo("request");
			assertThat(JsonPath.<Integer>read(body, result + ".latency.samples")).isEqualTo(200);
			assertThat(JsonPath.<Integer>read(body, result + ".fanOut.requests")).isEqualTo(200);
			assertThat(JsonPath.<Integer>read(body, result + ".hits")).isEqualTo(30 * 200);
			assertThat(JsonPath.<Integer>read(body, result + ".count")).isEqualTo(30);
			checkOrdered(JsonPath.parse(body).read(result).toString(), result, body);
		}
		okBody("/pipeincr/30?requests=50", jsonPath("$.written").value(1500), jsonPath("$.verified").value(1500),
				jsonPath("$.latency.per").value("request"));
	}

	private static void checkOrdered(String body) {
		checkOrdered(body, "$", body);
	}

	private static void checkOrdered(String ignored, String path, String body) {
		double p50 = number(body, path + ".latency.p50");
		double p90 = number(body, path + ".latency.p90");
		double p99 = number(body, path + ".latency.p99");
		double p999 = number(body, path + ".latency.p999");
		double max = number(body, path + ".latency.max");
		assertThat(p50).isPositive();
		assertThat(p50).isLessThanOrEqualTo(p90);
		assertThat(p90).isLessThanOrEqualTo(p99);
		assertThat(p99).isLessThanOrEqualTo(p999);
		assertThat(p999).isLessThanOrEqualTo(max);
	}

	private static double number(String body, String path) {
		return JsonPath.<Number>read(body, path).doubleValue();
	}

	/** What the operation must have left in Redis after {@code count} items. */
	private void assertState(String op, int count, int valueSize) {
		switch (op) {
			case "incr" ->
				assertThat(this.redis.opsForValue().get(this.keys.counterKey())).isEqualTo(String.valueOf(count));
			case "hset" -> {
				assertThat(this.redis.opsForHash().size(this.keys.hashKey())).isEqualTo(count);
				for (long i = 0; i < count; i++) {
					assertThat(this.redis.opsForHash().get(this.keys.hashKey(), this.keys.field(i)))
						.isEqualTo(this.keys.value(i, valueSize));
				}
			}
			case "sadd" -> {
				assertThat(this.redis.opsForSet().size(this.keys.setKey())).isEqualTo(count);
				for (long i = 0; i < count; i++) {
					assertThat(this.redis.opsForSet().isMember(this.keys.setKey(), this.keys.value(i, valueSize)))
						.isTrue();
				}
			}
			case "zadd" -> {
				assertThat(this.redis.opsForZSet().size(this.keys.sortedSetKey())).isEqualTo(count);
				for (long i = 0; i < count; i++) {
					assertThat(this.redis.opsForZSet().score(this.keys.sortedSetKey(), this.keys.value(i, valueSize)))
						.isEqualTo((double) i);
				}
			}
			case "lpush" -> {
				List<String> list = this.redis.opsForList().range(this.keys.listKey(), 0, -1);
				assertThat(list).hasSize(count);
				for (int j = 0; j < count; j++) {
					assertThat(list.get(j)).isEqualTo(this.keys.value(count - 1 - j, valueSize));
				}
			}
			default -> throw new IllegalArgumentException(op);
		}
		// Everything under the prefix, and nothing but the operation's own key (the
		// warm-up's are gone), the run records aside.
		assertThat(this.redis.keys(this.keys.scanPattern())).filteredOn((key) -> !key.matches(".*:runs?(:.*)?"))
			.containsExactly((String) dev.pipelininglab.run.Operation.fromLabel(op).orElseThrow().key(this.keys));
	}

}
