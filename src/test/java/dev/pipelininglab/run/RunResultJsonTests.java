package dev.pipelininglab.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.redis.ServerStats;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A result is built from parts, but its JSON is the one flat object clients and stored
 * run records have always had.
 */
class RunResultJsonTests {

	/** The contract's field order, as the single record wrote it. */
	private static final List<String> FIELDS = List.of("operation", "mode", "variant", "flushPolicy", "writes", "count",
			"batchSize", "batches", "topology", "elapsedMillis", "opsPerSecond", "opsPerSecondMin", "opsPerSecondMax",
			"repeat", "repeatMillis", "addedRttMillis", "measuredRttMillis", "measuredRttMillisByNode", "written",
			"verified", "hits", "misses", "popped", "empty", "pongs", "keysPerNode", "slotsTouched", "commands",
			"redirects", "note", "sample", "speedup", "speedupMin", "speedupMax", "latency", "payload", "fanOut",
			"offeredRate", "timeLimit", "keySpace", "connector", "connections", "clients", "master", "server",
			"foreignCommands", "limitedBy", "settings");

	@Test
	void thePartsWriteOneFlatObjectInTheContractsOrder() {
		withSpringsMapper((json) -> {
			assertThat(fieldsOf(json, sample(true))).containsExactlyElementsOf(FIELDS);
			// Without clients or a pace the projection applies; it comes last.
			List<String> withProjection = new java.util.ArrayList<>(FIELDS);
			withProjection.remove("clients");
			withProjection.remove("offeredRate");
			withProjection.add("projection");
			assertThat(fieldsOf(json, sample(false))).containsExactlyElementsOf(withProjection);
		});
	}

	@Test
	void partsThatDoNotApplyLeaveNoFieldBehind() {
		withSpringsMapper((json) -> assertThat(fieldsOf(json, sparse())).containsExactly("operation", "mode", "variant",
				"count", "batchSize", "batches", "topology", "elapsedMillis", "opsPerSecond", "repeat",
				"measuredRttMillis", "hits", "misses", "sample", "latency", "connector", "projection"));
	}

	@Test
	void aStoredResultReadsBackAsItWasWritten() {
		withSpringsMapper((json) -> {
			for (RunResult result : List.of(sample(true), sample(false), sparse())) {
				assertThat(json.readValue(json.writeValueAsString(result), RunResult.class)).isEqualTo(result);
			}
		});
	}

	private static void withSpringsMapper(Consumer<JsonMapper> check) {
		// The app's own setting: a misspelt field in a request body is a 400.
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
			.withPropertyValues("spring.jackson.deserialization.fail-on-unknown-properties=true")
			.run((context) -> check.accept(context.getBean(JsonMapper.class)));
	}

	private static List<String> fieldsOf(JsonMapper json, RunResult result) {
		return List.copyOf(json.readValue(json.writeValueAsString(result), LinkedHashMap.class).keySet());
	}

	private static RunResult sample(boolean withClients) {
		ServerStats server = new ServerStats(7, 1L, 2L, 0.5, 1.5, 10L, 20L, 30L, null, "run", 0L, 0L, null, null);
		return new RunResult(
				new RunResult.Ran(Operation.SET, Mode.PIPELINED, "pipelined", "flush-on-close", "per-flush", 1000, 100,
						10, "standalone"),
				new RunResult.Timing(12.5, 80000.0, 76000.0, 83000.0, 2, List.of(12.0, 13.0), 1.0, 0.2,
						Map.of("a:1", 0.3)),
				new RunResult.Counts(1000L, 999L, 3L, 4L, 5L, 6L, 7L, null),
				new RunResult.ClusterUse(Map.of("a:1", 1000L), 12, 34L, 2L),
				new RunResult.Notes("a note", List.of("v1", "v2")), 3.5, 3.1, 3.9,
				new RunResult.Load(new Latency(Latency.Per.BATCH, 10, 1, 2, 3, 4, 5, null),
						new RunResult.Payload(16, 1e6, 200, 4096L), new RunResult.FanOut(3, 2.5),
						withClients ? new RunResult.OfferedRate(100, 99.0, true, "intended send time") : null,
						new TimeLimit(3, true, 900), new RunResult.KeySpaceUse(1000, "gaussian", 7, 600, 0.5)),
				new RunResult.Connection(new RunResult.ConnectorUse("lettuce", "shared", "one"),
						new RunResult.ConnectionsUsed(1, 0, ServerCounters.COUNTED_BY),
						withClients ? new RunResult.ClientsReport(2, new RunResult.Spread(1, 2, 3),
								List.of(new RunResult.PerClient(0, 0, 499, 500, 6.0, 80000.0))) : null,
						"m:1"),
				new RunResult.ServerSide(server, 11L),
				new Bottleneck(Bottleneck.What.CLIENT,
						new Bottleneck.Evidence(0.97, 0.5, 0.8, 2, 0.9, 0.38, Map.of("a:1", 0.38, "b:2", 0.1), true,
								0.02, 10L, 0.05, 100, 99.0),
						"client-bound: the sending thread was busy 97% of the pass", null),
				Map.of("k", "v"));
	}

	private static RunResult sparse() {
		return new RunResult(new RunResult.Ran(Operation.GET, Mode.LOOP, "loop", null, null, 10, 1, 10, "standalone"),
				new RunResult.Timing(1.5, 800.0, null, null, 1, null, null, 0.2, null),
				new RunResult.Counts(null, null, 3L, 4L, null, null, null, null),
				new RunResult.ClusterUse(null, null, null, null), new RunResult.Notes(null, List.of()), null, null,
				null,
				new RunResult.Load(new Latency(Latency.Per.COMMAND, 10, 1, 2, 3, 4, 5, null), null, null, null, null,
						null),
				new RunResult.Connection(new RunResult.ConnectorUse("lettuce", "shared", null), null, null, null),
				new RunResult.ServerSide(null, null), null, null);
	}

}
