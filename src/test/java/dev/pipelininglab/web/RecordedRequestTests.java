package dev.pipelininglab.web;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.pipelininglab.config.LabProperties;
import dev.pipelininglab.job.RunPlan;
import dev.pipelininglab.job.RunRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The places a parameter lives besides its catalogue entry, checked over the whole
 * catalogue: every body field of {@code POST /runs} ({@link RunJobRequest}) reaches the
 * plan through the query parameters it stands for ({@link RunJobRequest#params()}), the
 * run's record keeps it ({@link RunRecord.Request}, {@link RunPlan#describe()}), and the
 * record posted again plans the same run. A parameter added to the catalogue and left out
 * of one of them fails here.
 */
class RecordedRequestTests {

	private static final Set<String> BODY_ONLY = Set.of("kind", "operation", "mode", "count");

	private static final String SET = "\"kind\":\"single\",\"operation\":\"set\",\"mode\":\"pipelined\",\"count\":100";

	private static final String GET = "\"kind\":\"single\",\"operation\":\"get\",\"mode\":\"loop\",\"count\":100";

	/** The run a parameter belongs to, and a value of it other than its default. */
	private static final Map<String, String> ASKED = Map.ofEntries(Map.entry("batchSize", SET + ",\"batchSize\":10"),
			Map.entry("sample", SET + ",\"sample\":5"), Map.entry("ttl", SET + ",\"ttl\":60"),
			Map.entry("flushPolicy", SET + ",\"flushPolicy\":\"flush-on-close\""),
			Map.entry("rtt", SET + ",\"rtt\":0.5"),
			Map.entry("repeat", "\"kind\":\"compare\",\"operation\":\"set\",\"count\":100,\"repeat\":2"),
			Map.entry("variants",
					"\"kind\":\"compare\",\"operation\":\"get\",\"count\":100,\"variants\":[\"loop\",\"multi-key\"]"),
			Map.entry("batchSizes", "\"kind\":\"sweep\",\"operation\":\"set\",\"count\":100,\"batchSizes\":[1,10]"),
			Map.entry("valueSize", SET + ",\"valueSize\":32"), Map.entry("requests", SET + ",\"requests\":2"),
			Map.entry("clients", SET + ",\"clients\":2"), Map.entry("connector", SET + ",\"connector\":\"jedis\""),
			Map.entry("connection", GET + ",\"connection\":\"pooled\""), Map.entry("rate", SET + ",\"rate\":1000"),
			Map.entry("duration", SET + ",\"duration\":5"),
			Map.entry("ratio",
					"\"kind\":\"single\",\"operation\":\"mixed\",\"mode\":\"pipelined\",\"count\":100,\"ratio\":\"1:2\""),
			Map.entry("keys", GET + ",\"keys\":50"), Map.entry("pattern", GET + ",\"pattern\":\"uniform\""),
			Map.entry("seed", GET + ",\"seed\":9"), Map.entry("instances", GET + ",\"instances\":2"));

	/** Strict as the app's own: a recorded field the body does not take fails. */
	private final JsonMapper json = JsonMapper.builder()
		.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.build();

	private final RunRequests requests;

	RecordedRequestTests() {
		LabProperties lab = new Binder(new MapConfigurationPropertySource(
				Map.of("lab.fleet.join", "true", "lab.fleet.secret", "a-secret-of-at-least-thirty-two-bytes")))
			.bindOrCreate("lab", LabProperties.class);
		this.requests = new RunRequests(new LabSettings(lab.limits(), lab.pipeline(), lab.jobs(), lab.fleet()));
	}

	@Test
	void theBodyAndTheRecordHaveTheCatalogueFieldsOfARunAndEachIsTriedHere() {
		Set<String> body = components(RunJobRequest.class);
		assertThat(components(RunRecord.Request.class)).isEqualTo(body);
		body.removeAll(BODY_ONLY);
		assertThat(body)
			.isEqualTo(Stream.of(ApiParameter.values())
				.map(ApiParameter::parameterName)
				.filter(body::contains)
				.collect(Collectors.toCollection(TreeSet::new)))
			.isEqualTo(new TreeSet<>(ASKED.keySet()));
	}

	static Stream<String> asked() {
		return ASKED.keySet().stream().sorted();
	}

	@ParameterizedTest
	@MethodSource("asked")
	void aParameterReachesThePlanAndTheRecordAndTheRecordPostedAgainPlansTheSameRun(String name) {
		JsonNode asked = this.json.readTree("{" + ASKED.get(name) + "}");
		RunPlan plan = this.requests.plan(this.json.treeToValue(asked, RunJobRequest.class));
		RunRecord.Request recorded = plan.describe();
		assertThat(this.json.valueToTree(recorded).path(name).toString()).as(name)
			.isEqualTo(asked.get(name).toString());

		RunPlan again = this.requests
			.plan(this.json.readValue(this.json.writeValueAsString(recorded), RunJobRequest.class));
		assertThat(again).as(name).isEqualTo(plan);
		assertThat(again.describe()).isEqualTo(recorded);
	}

	private static Set<String> components(Class<? extends Record> type) {
		return Arrays.stream(type.getRecordComponents())
			.map((component) -> component.getName())
			.collect(Collectors.toCollection(TreeSet::new));
	}

}
