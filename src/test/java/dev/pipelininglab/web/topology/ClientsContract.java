package dev.pipelininglab.web.topology;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Several clients at once, shared or pooled connections, Lettuce or Jedis, on a real
 * standalone or sentinel Redis (a subclass each): every combination writes exactly
 * {@code count} keys with their values, the clients' key ranges are disjoint and leave no
 * gap, and the connections the server saw match how the connector works.
 */
abstract class ClientsContract extends MockMvcOnTestRedis {

	@ParameterizedTest(name = "{0} {1} {2}")
	@CsvSource({ "lettuce, loop, shared", "lettuce, loop, pooled", "lettuce, pipelined, ", "lettuce, multi-key, shared",
			"lettuce, multi-key, pooled", "lettuce, script, pooled", "lettuce, async, ", "jedis, loop, ",
			"jedis, pipelined, ", "jedis, multi-key, ", "jedis, script, " })
	void everyConnectorAndModeWritesEachKeyOnceFromFourClients(String connector, String mode, String connection)
			throws Exception {
		String path = "/compare/set/1000?batchSize=100&clients=4&variants="
				+ (connector.equals("jedis") ? "jedis-" : "") + mode
				+ ((connection != null) ? "&connection=" + connection : "");
		String body = okBody(path, jsonPath("$.skipped.length()").value(0));
		Map<String, Object> result = JsonPath.read(body, "$.results[0]");
		assertThat(result).containsEntry("written", 1000).containsEntry("verified", 1000);
		String expectedConnection = (connection != null) ? connection : "pooled";
		assertThat(JsonPath.<String>read(result, "$.connector.name")).isEqualTo(connector);
		assertThat(JsonPath.<String>read(result, "$.connector.connection")).isEqualTo(expectedConnection);
		assertThat(JsonPath.<Integer>read(result, "$.clients.count")).isEqualTo(4);
		assertDisjointRangesWithoutGap(result, 1000);
		int used = JsonPath.read(result, "$.connections.used");
		if (expectedConnection.equals("shared")) {
			// Four threads, one TCP connection: Lettuce pipelines their calls on it.
			assertThat(used).isEqualTo(1);
		}
		else {
			assertThat(used).isBetween(1, 4);
		}
		if (mode.equals("pipelined")) {
			assertThat(JsonPath.<String>read(result, "$.connector.pipelineWrites"))
				.contains(connector.equals("jedis") ? "no flush policy" : "flush policy");
		}
		if (connector.equals("jedis")) {
			assertThat(result).doesNotContainKey("flushPolicy");
		}
		assertThat(demoKeys()).hasSize(1000);
		assertValues(0, 1000);
	}

	@Test
	void unevenSplitsStillCoverEveryKeyExactlyOnce() throws Exception {
		String body = okBody("/loopset/10001?clients=7&connection=pooled&batchSize=500&sample=3",
				jsonPath("$.written").value(10001), jsonPath("$.verified").value(10001),
				jsonPath("$.sample[0]").value("value-0"), jsonPath("$.clients.count").value(7),
				jsonPath("$.latency.per").value("command"), jsonPath("$.latency.samples").value(10001),
				jsonPath("$.batches").value(10001));
		Map<String, Object> result = JsonPath.read(body, "$");
		assertDisjointRangesWithoutGap(result, 10001);
		double min = JsonPath.read(result, "$.clients.opsPerSecond.min");
		double max = JsonPath.read(result, "$.clients.opsPerSecond.max");
		assertThat(min).isPositive().isLessThanOrEqualTo(max);
		assertThat(demoKeys()).hasSize(10001);
		assertValues(0, 10001);
	}

	@Test
	void clientsReadEveryKeyBack() throws Exception {
		this.mvc.perform(get("/pipeset/3000")).andExpect(status().isOk());
		okBody("/pipeget/3000?clients=5&batchSize=200&connector=jedis", jsonPath("$.hits").value(3000),
				jsonPath("$.misses").value(0), jsonPath("$.latency.per").value("batch"),
				jsonPath("$.latency.samples").value(15));
		okBody("/loopget/3000?clients=3", jsonPath("$.hits").value(3000));
	}

	@Test
	void aDefaultRunIsOneClientOnOneSharedLettuceConnection() throws Exception {
		okBody("/loopset/500", jsonPath("$.connector.name").value("lettuce"),
				jsonPath("$.connector.connection").value("shared"), jsonPath("$.connections.used").value(1),
				jsonPath("$.connections.opened").value(0), jsonPath("$.clients").doesNotExist(),
				jsonPath("$.latency.samples").value(500));
	}

	@Test
	void badClientsConnectorsAndConnectionsAreRejectedByName() throws Exception {
		expectBad("/loopset/100?clients=0", "clients", "between 1 and 64");
		expectBad("/loopset/100?clients=65", "clients", "between 1 and 64");
		expectBad("/loopset/10?clients=11", "clients", "larger than count");
		expectBad("/loopset/100?connector=redisson", "connector", "lettuce or jedis");
		expectBad("/loopset/100?connection=both", "connection", "shared or pooled");
		expectBad("/pipeset/100?connection=pooled", "connection", "dedicated");
		expectBad("/loopset/100?connector=jedis&connection=shared", "connection", "Jedis has no shared connection");
		expectBad("/pipeset/100?connector=jedis&flushPolicy=flush-on-close", "flushPolicy", "no flush policy");
		expectBad("/compare/set/100?connector=jedis", "connector", "jedis-<mode>");
		expectBad("/compare/set/100?variants=jedis-pipelined-flush-on-close", "variants", "no flush policy");
	}

	@Test
	void sweepsRunThroughTheAskedConnector() throws Exception {
		okBody("/sweep/set/2000?connector=jedis&batchSizes=10,1000&clients=2",
				jsonPath("$.results[*].connector.name").value(everyItem(is("jedis"))),
				jsonPath("$.results[*].variant").value(everyItem(is("jedis-pipelined"))),
				jsonPath("$.results[*].verified").value(everyItem(is(2000))));
	}

	@Test
	void jedisHasNoAsyncModeAndSaysSo() throws Exception {
		okBody("/compare/set/100?variants=loop,jedis-async", jsonPath("$.skipped[0].variant").value("jedis-async"),
				jsonPath("$.skipped[0].reason", containsString("Lettuce's own API")));
	}

	/**
	 * Spring Data Redis's Jedis connection answers PING inside a pipeline or transaction
	 * with an exception, which once came back as a 503 "Cannot reach Redis".
	 */
	@Test
	void jedisPingsInALoopAndAScriptAndSaysWhyNotInAPipelineOrTransaction() throws Exception {
		okBody("/compare/ping/100?variants=jedis-loop,jedis-pipelined,jedis-transaction,jedis-script",
				jsonPath("$.results[*].variant").value(contains("jedis-loop", "jedis-script")),
				jsonPath("$.results[*].pongs").value(everyItem(is(100))),
				jsonPath("$.skipped[*].variant").value(contains("jedis-pipelined", "jedis-transaction")),
				jsonPath("$.skipped[*].reason").value(everyItem(containsString("refuses PING"))));
		expectBad("/pipeping/100?connector=jedis", "connector", "refuses PING");
	}

	@Test
	void comparisonsPutJedisRowsBesideLettuceRows() throws Exception {
		this.mvc.perform(get("/compare/set/2000?variants=loop,pipelined,jedis-loop,jedis-pipelined&clients=2"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.results[*].variant")
				.value(contains(is("loop"), startsWith("pipelined-"), is("jedis-loop"), is("jedis-pipelined"))))
			.andExpect(jsonPath("$.results[*].verified").value(everyItem(is(2000))))
			// Each connector's rows are measured against its own loop.
			.andExpect(jsonPath("$.results[0].speedup").value(1.0))
			.andExpect(jsonPath("$.results[2].speedup").value(1.0));
	}

	/** Client k's first item follows client k-1's last; together they are 0..count-1. */
	private static void assertDisjointRangesWithoutGap(Map<String, Object> result, long count) {
		List<Map<String, Object>> clients = JsonPath.read(result, "$.clients.perClient");
		long next = 0;
		for (Map<String, Object> client : clients) {
			long first = ((Number) client.get("first")).longValue();
			long last = ((Number) client.get("last")).longValue();
			assertThat(first).isEqualTo(next);
			assertThat(((Number) client.get("items")).longValue()).isEqualTo(last - first + 1).isPositive();
			next = last + 1;
		}
		assertThat(next).isEqualTo(count);
	}

	private void assertValues(long from, long to) {
		this.replicas.await();
		List<String> names = LongStream.range(from, to).mapToObj(this.keys::key).toList();
		List<String> values = this.redis.opsForValue().multiGet(names);
		for (int i = 0; i < names.size(); i++) {
			assertThat(values.get(i)).as(names.get(i)).isEqualTo(this.keys.value(from + i, 0));
		}
	}

	/** Every demo key on the (one) master: no key outside 0..count-1 was written. */
	private Set<String> demoKeys() {
		this.replicas.await();
		return this.redis.execute((RedisCallback<Set<String>>) (connection) -> {
			Set<String> found = new HashSet<>();
			ScanOptions options = ScanOptions.scanOptions().match(this.keys.scanPattern()).count(1000).build();
			try (Cursor<byte[]> cursor = connection.keyCommands().scan(options)) {
				cursor.forEachRemaining((key) -> found.add(new String(key)));
			}
			// The run records aside.
			found.removeIf((key) -> key.matches(".*:runs?(:.*)?"));
			return found;
		});
	}

}
