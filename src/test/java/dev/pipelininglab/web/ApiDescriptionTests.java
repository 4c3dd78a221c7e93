package dev.pipelininglab.web;

import dev.pipelininglab.testsupport.SlowTest;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI description lists every endpoint with its parameters, bounds, examples and
 * problem answers, and Swagger UI serves it.
 */
@SlowTest
class ApiDescriptionTests extends AppOnTestRedis {

	private static final List<String> PATHS = List.of("/", "/keys", "/pipeset/{count}", "/pipeget/{count}",
			"/piperpop/{count}", "/pipeping/{count}", "/loopset/{count}", "/loopget/{count}", "/looprpop/{count}",
			"/loopping/{count}", "/listinput/{count}", "/compare/{op}/{count}", "/sweep/{op}/{count}", "/runs",
			"/runs/{id}", "/runs/{id}/events", "/pipeincr/{count}", "/pipehset/{count}", "/pipesadd/{count}",
			"/pipezadd/{count}", "/pipelpush/{count}", "/loopincr/{count}", "/loophset/{count}", "/loopsadd/{count}",
			"/loopzadd/{count}", "/looplpush/{count}", "/pipemixed/{count}", "/loopmixed/{count}", "/runs/compare",
			"/runs/{id}/report.{format}", "/recipes/{variant}");

	@Autowired
	JsonMapper json;

	@Test
	void specListsEveryEndpointWithParametersBoundsAndProblems() throws Exception {
		JsonNode spec = this.json.readTree(get("/v3/api-docs").body());
		List<String> paths = new ArrayList<>();
		spec.get("paths").propertyNames().forEach(paths::add);
		assertThat(paths).containsExactlyInAnyOrderElementsOf(PATHS);

		for (Map.Entry<String, JsonNode> path : spec.get("paths").properties()) {
			for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
				String name = operation.getKey().toUpperCase() + " " + path.getKey();
				JsonNode op = operation.getValue();
				assertThat(op.path("summary").asString()).as(name + " summary").isNotBlank();
				for (JsonNode parameter : op.path("parameters")) {
					assertThat(parameter.path("description").asString()).as(name + " " + parameter.get("name"))
						.isNotBlank();
					// Try it out fills in the path from its examples; a query parameter
					// may have none (everyRunEndpointAnswers200...).
					if (parameter.path("in").asString().equals("path")) {
						assertThat(parameter.has("example")).as(name + " " + parameter.get("name") + " example")
							.isTrue();
					}
				}
				op.path("responses").properties().forEach((response) -> {
					if (response.getKey().startsWith("4") || response.getKey().startsWith("5")) {
						assertThat(response.getValue().path("content").has("application/problem+json"))
							.as(name + " " + response.getKey())
							.isTrue();
					}
				});
				// The index and the recipes read no Redis.
				if (!path.getKey().equals("/") && !path.getKey().startsWith("/recipes")) {
					assertThat(op.path("responses").has("503")).as(name + " 503").isTrue();
				}
			}
		}

		JsonNode pipeset = spec.at("/paths/~1pipeset~1{count}/get");
		assertThat(parameter(pipeset, "count").at("/schema/maximum").asLong()).isEqualTo(10_000_000);
		assertThat(parameter(pipeset, "batchSize").at("/schema/maximum").asInt()).isEqualTo(100_000);
		assertThat(parameter(pipeset, "repeat")).as("repeat does not apply to /pipeset").isNull();
		assertThat(pipeset.path("responses").propertyNames()).contains("200", "400", "409", "503");
		assertThat(parameter(spec.at("/paths/~1compare~1{op}~1{count}/get"), "variants")).isNotNull();
		assertThat(parameter(pipeset, "valueSize").at("/schema/maximum").asInt()).isEqualTo(1_048_576);
		assertThat(parameter(pipeset, "requests").at("/schema/maximum").asInt()).isEqualTo(100_000);
		assertThat(parameter(spec.at("/paths/~1pipeincr~1{count}/get"), "valueSize")).as("INCR carries no value")
			.isNull();

		JsonNode start = spec.at("/paths/~1runs/post");
		assertThat(start.path("responses").has("202")).isTrue();
		assertThat(start.at("/responses/202/headers").has("Location")).isTrue();
		assertThat(start.at("/responses/429/headers").has("Retry-After")).isTrue();
		// The one limit, as configured: GET runs and jobs together.
		assertThat(start.at("/responses/429/content/application~1problem+json/example/detail").asString())
			.contains("(8 runs at once, GET runs and jobs together: lab.admission.max-concurrent)")
			.doesNotContain("lab.jobs.max-concurrent");
		assertThat(start.at("/requestBody/content/application~1json/examples").propertyNames()).contains("single",
				"compare", "sweep");
		assertThat(spec.at("/paths/~1runs~1{id}~1events/get/responses/200/content").has("text/event-stream")).isTrue();
		assertThat(spec.at("/paths/~1runs~1{id}/delete/responses").has("409")).isTrue();
		// What a handler answers is told on the handler, beside what springdoc infers.
		JsonNode record = spec.at("/paths/~1runs~1{id}/get/responses/200");
		assertThat(record.path("description").asString()).startsWith("The run's record:");
		assertThat(record.path("content").toString()).contains("#/components/schemas/RunRecord");
		assertThat(spec.at("/paths/~1runs~1compare/get/responses").has("404")).isTrue();
		assertThat(pipeset.at("/responses/200/description").asString()).startsWith("The run is done");
		assertThat(pipeset.at("/responses/409/content/application~1problem+json/example/type").asString())
			.isEqualTo(dev.pipelininglab.ProblemType.REDIS_ERROR_REPLY.uri().toString());
	}

	/**
	 * The description and the {@code GET /} listing name exactly the catalogue's
	 * parameters, each endpoint exactly those that apply to it, with the catalogue's
	 * bounds.
	 */
	@Test
	void descriptionAndIndexListExactlyTheCatalogue() throws Exception {
		JsonNode spec = this.json.readTree(get("/v3/api-docs").body());
		Set<String> described = new TreeSet<>();
		for (Map.Entry<String, JsonNode> path : spec.get("paths").properties()) {
			for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
				Set<String> query = new TreeSet<>();
				for (JsonNode parameter : operation.getValue().path("parameters")) {
					described.add(parameter.path("name").asString());
					if (parameter.path("in").asString().equals("query")) {
						query.add(parameter.path("name").asString());
					}
				}
				assertThat(query).as(operation.getKey() + " " + path.getKey())
					.containsExactlyInAnyOrderElementsOf((operation.getKey().equals("post") ? List.<ApiParameter>of()
							: ApiParameter.query(path.getKey()))
						.stream()
						.map(ApiParameter::parameterName)
						.toList());
			}
		}
		List<String> catalogue = Stream.of(ApiParameter.values()).map(ApiParameter::parameterName).toList();
		// Body fields (instances) are described in POST /runs' body schema, not as
		// parameters.
		assertThat(described).containsExactlyInAnyOrderElementsOf(Stream.of(ApiParameter.values())
			.filter((parameter) -> parameter.in() != ApiParameter.In.BODY)
			.map(ApiParameter::parameterName)
			.toList());
		assertThat(parameter(spec.at("/paths/~1pipeset~1{count}/get"), "rtt").at("/schema/minimum").asDouble())
			.isEqualTo(0.001);

		HttpResponse<String> index = http().send(http().request("/").header("Accept", "application/json"));
		JsonNode listed = this.json.readTree(index.body()).path("parameters");
		List<String> names = new ArrayList<>();
		listed.forEach((parameter) -> names.add(parameter.path("name").asString()));
		assertThat(names).containsExactlyElementsOf(catalogue);
		JsonNode count = listed.get(catalogue.indexOf("count"));
		assertThat(count.path("maximum").asLong()).isEqualTo(10_000_000);
		assertThat(count.path("in").asString()).isEqualTo("path");
		assertThat(listed.get(catalogue.indexOf("batchSize")).path("default").asInt()).isEqualTo(10_000);
		assertThat(listed.get(catalogue.indexOf("variants")).path("description").asString())
			.as("what variants=pipelined runs, named")
			.contains("pipelined (the app's default flush policy, lab.pipeline.flush-policy, here buffered-500;"
					+ " Spring Data Redis' own default is flush-each-command)");
		assertThat(parameter(spec.at("/paths/~1compare~1{op}~1{count}/get"), "variants").path("description").asString())
			.contains("here buffered-500");

		List<String> types = new ArrayList<>();
		spec.at("/components/schemas/ProblemDetail/properties/type/enum").forEach((type) -> types.add(type.asString()));
		// Every type of the catalogue and Spring's own for an unknown path; nothing else.
		assertThat(types).containsExactlyInAnyOrderElementsOf(
				Stream
					.concat(Stream.of(dev.pipelininglab.ProblemType.values()).map((type) -> type.uri().toString()),
							Stream.of("about:blank"))
					.toList());
	}

	/**
	 * Swagger UI's Try it out fills every parameter with its example, else its default
	 * (swagger-ui's ParameterRow): sent as filled in, with only the path typed, every run
	 * endpoint answers 200, so no example clashes with another.
	 */
	@Test
	void everyRunEndpointAnswers200ToItsOpenApiExamplesWithOnlyThePathTyped() throws Exception {
		JsonNode spec = this.json.readTree(get("/v3/api-docs").body());
		List<String> tried = new ArrayList<>();
		for (String path : ApiParameter.COUNT.endpoints()) {
			String target = path;
			List<String> query = new ArrayList<>();
			for (JsonNode parameter : spec.at("/paths/" + path.replace("/", "~1") + "/get/parameters")) {
				JsonNode filled = Stream
					.of(parameter.path("example"), parameter.at("/schema/example"), parameter.at("/schema/default"))
					.filter((value) -> !value.isMissingNode())
					.findFirst()
					.orElse(null);
				String name = parameter.path("name").asString();
				if (parameter.path("in").asString().equals("path")) {
					target = target.replace("{" + name + "}", filled.asString());
				}
				else if (filled != null) {
					query.add(name + "="
							+ java.net.URLEncoder.encode(filled.asString(), java.nio.charset.StandardCharsets.UTF_8));
				}
			}
			assertThat(query).as(path + " fills in its defaults at least").isNotEmpty();
			String uri = target + "?" + String.join("&", query);
			HttpResponse<String> answer = http().get(uri, "application/json");
			assertThat(answer.statusCode()).as(uri + " -> " + answer.body()).isEqualTo(200);
			tried.add(uri);
		}
		assertThat(tried).hasSize(ApiParameter.COUNT.endpoints().size())
			.anyMatch((uri) -> uri.startsWith("/compare/set/1000?"));
	}

	@Test
	void swaggerUiServesTheDescription() throws Exception {
		HttpResponse<String> redirect = get("/swagger-ui.html");
		assertThat(redirect.statusCode()).isEqualTo(302);
		String location = redirect.headers().firstValue("Location").orElseThrow();
		assertThat(location).endsWith("/swagger-ui/index.html");
		HttpResponse<String> page = get(URI.create(location).getPath());
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.body()).contains("swagger-ui");
		assertThat(get("/swagger-ui/swagger-initializer.js").body()).contains("/v3/api-docs");
		JsonNode config = this.json.readTree(get("/v3/api-docs/swagger-config").body());
		assertThat(config.path("operationsSorter").asString()).isEqualTo("alpha");
		assertThat(config.path("tagsSorter").asString()).isEqualTo("alpha");
	}

	private static JsonNode parameter(JsonNode operation, String name) {
		for (JsonNode parameter : operation.path("parameters")) {
			if (parameter.path("name").asString().equals(name)) {
				return parameter;
			}
		}
		return null;
	}

	private HttpResponse<String> get(String path) {
		return http().get(path);
	}

}
