package dev.pipelininglab.web;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.job.JobsFullException;
import dev.pipelininglab.run.RunSlots;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.NumberSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.tags.Tag;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The API description ({@code /v3/api-docs}) from the catalogue and the index's list
 * rather than annotations, so the bounds it states are the configured ones.
 */
@Configuration(proxyBeanMethods = false)
class ApiDocumentation {

	private static final String JSON = "application/json";

	private static final String SINGLE = "Single runs";

	private static final String MULTIPLE = "Comparisons and sweeps";

	private static final String JOBS = "Runs as jobs";

	private static final String LAB = "Lab";

	private static final String EXAMPLE_ID = Objects.requireNonNull(ApiParameter.ID.example());

	@Bean
	OpenAPI labOpenApi() {
		return new OpenAPI().info(new Info().title("pipelining-lab")
			.version("0.1.0")
			.description("Measures Redis pipelining with Spring Data Redis and Lettuce: a loop of blocking calls"
					+ " against executePipelined, multi-key commands, a Lua script and Lettuce async, for SET, GET,"
					+ " RPOP, PING, INCR, HSET, SADD, ZADD, LPUSH and SET/GET mixes, with values of any size, request fan-out"
					+ " and latency percentiles. GET endpoints answer when the run is done; POST /runs starts the same runs"
					+ " as jobs to follow with Server-Sent Events. Every error is an RFC 9457 problem.")
			.license(new License().name("see the repository")))
			.addTagsItem(new Tag().name(SINGLE).description("One operation in one mode; answers when done"))
			.addTagsItem(new Tag().name(MULTIPLE).description("Variants or batch sizes side by side on the same keys"))
			.addTagsItem(new Tag().name(JOBS).description("Long runs started, followed and cancelled as jobs"))
			.addTagsItem(new Tag().name(LAB).description("The index, demo key cleanup and the recipes"));
	}

	@Bean
	OpenApiCustomizer labApiCustomizer(LabSettings properties, RunSlots slots) {
		return new Customizer(properties, slots.max())::customise;
	}

	private static final class Customizer {

		private final LabSettings properties;

		/** The 2xx answer of each endpoint whose answer springdoc cannot describe. */
		private final Map<String, String> answers = Map.of("GET /runs/{id}",
				"The run's record: status, progress, and results when DONE; a table for"
						+ " Accept: text/plain, text/csv or text/markdown",
				"GET /runs/{id}/report.{format}", "The run as a file (Content-Disposition: attachment)",
				"GET /runs/compare",
				"Both runs' figures matched by variant and batch size, with b/a ratios; a table"
						+ " for Accept: text/plain, text/csv or text/markdown",
				"GET /recipes/{variant}",
				"The recipe: JSON with its cost, catch and source, or the Java source alone for Accept: text/plain",
				"DELETE /keys", "How many demo keys were removed", "POST /runs",
				"Accepted: the run is QUEUED; follow it at the Location", "DELETE /runs/{id}",
				"Cancel requested: the run stops before its next batch and becomes CANCELLED");

		private final Map<String, List<Problem>> problems;

		/** The 429 example names the one limit as configured. */
		Customizer(LabSettings properties, int maxConcurrent) {
			this.properties = properties;
			Problem notFound = new Problem(ProblemType.RUN_NOT_FOUND, ProblemType.RUN_NOT_FOUND.detail(EXAMPLE_ID),
					Map.of("id", EXAMPLE_ID));
			this.problems = Map.of(
					"POST /runs",
					List.of(outOfBounds("count", properties.limits().maxCount()),
							new Problem(ProblemType.TOO_BUSY,
									JobsFullException.slotsTaken(maxConcurrent, properties.jobs().queueCapacity()),
									Map.of("retryAfterSeconds", 5))),
					"GET /runs", List.of(outOfBounds("limit", properties.jobs().history())), "GET /runs/{id}",
					List.of(notFound), "GET /runs/{id}/report.{format}",
					List.of(invalid("format", "format must be json, csv, md or txt (got 'exe')"), notFound),
					"GET /runs/compare", List.of(invalid("a", "a is required"), notFound), "DELETE /runs/{id}",
					List.of(notFound,
							new Problem(ProblemType.RUN_FINISHED, ProblemType.RUN_FINISHED.detail(EXAMPLE_ID, "DONE"),
									Map.of("id", EXAMPLE_ID, "runStatus", "DONE"))),
					"GET /runs/{id}/events", List.of(notFound), "GET /recipes/{variant}",
					List.of(invalid("variant", "variant must name a known variant: Unknown variant 'pipe'")));
		}

		void customise(OpenAPI api) {
			api.getComponents().addSchemas("ProblemDetail", problemSchema());
			api.getPaths().forEach(this::document);
		}

		private void document(String path, PathItem item) {
			item.readOperationsMap().forEach((method, operation) -> {
				String verb = method.name();
				operation.setTags(List.of(tag(path)));
				IndexController.ENDPOINTS.stream()
					.filter((endpoint) -> endpoint.method().equals(verb) && endpoint.path().equals(path))
					.findFirst()
					.ifPresent((endpoint) -> operation.summary(endpoint.description()));
				if (path.equals("/")) {
					operation.summary("the web page, or this app's endpoints as JSON for Accept: application/json");
				}
				parameters(path, operation);
				responses(verb, path, operation);
				if (verb.equals("POST") && path.equals("/runs")) {
					requestBody(operation);
				}
			});
		}

		private static String tag(String path) {
			if (path.startsWith("/runs")) {
				return JOBS;
			}
			if (path.startsWith("/compare") || path.startsWith("/sweep")) {
				return MULTIPLE;
			}
			return (path.equals("/") || path.equals("/keys") || path.startsWith("/recipes")) ? LAB : SINGLE;
		}

		private void parameters(String path, Operation operation) {
			if (operation.getParameters() == null) {
				return;
			}
			List<String> query = ApiParameter.query(path).stream().map(ApiParameter::parameterName).toList();
			operation.getParameters()
				.removeIf((parameter) -> "query".equals(parameter.getIn()) && !query.contains(parameter.getName()));
			operation.getParameters().forEach((parameter) -> describe(path, parameter));
		}

		private void describe(String path, Parameter parameter) {
			ApiParameter.named(parameter.getName()).ifPresent((known) -> {
				// Try it out sends every example and default: on /compare and /sweep one
				// that
				// only some operations' runs take (ttl, keys, ratio) would be refused for
				// the
				// others.
				List<String> endpoints = known.endpoints();
				boolean byOperation = Endpoints.MULTIPLE.contains(path) && !endpoints.containsAll(Endpoints.PIPELINED)
						&& !Endpoints.MULTIPLE.containsAll(endpoints);
				ApiParameter.Bounds bounds = known.bounds(this.properties);
				Schema<?> schema = switch (known.type()) {
					case INTEGER -> new IntegerSchema()
						.format((bounds.maximum() != null && bounds.maximum().longValue() > Integer.MAX_VALUE) ? "int64"
								: "int32");
					case NUMBER -> new NumberSchema();
					case STRING, LIST -> new StringSchema();
				};
				if (bounds.minimum() != null) {
					schema.setMinimum(new BigDecimal(bounds.minimum().toString()));
				}
				if (bounds.maximum() != null) {
					schema.setMaximum(new BigDecimal(bounds.maximum().toString()));
				}
				if (bounds.pattern() != null) {
					schema.setPattern(bounds.pattern());
				}
				if (bounds.defaultValue() != null && !byOperation) {
					((Schema<Object>) schema).setDefault(bounds.defaultValue());
				}
				parameter.description(known.description(this.properties))
					.schema(schema)
					.example(byOperation ? null : known.example());
			});
		}

		/** What springdoc cannot infer: answers and a problem of each kind. */
		private void responses(String verb, String path, Operation operation) {
			ApiResponses responses = operation.getResponses();
			String endpoint = verb + " " + path;
			List<Problem> problems = new ArrayList<>(this.problems.getOrDefault(endpoint, List.of()));
			if (ApiParameter.COUNT.endpoints().contains(path)) {
				response(responses, "200").description("The run is done: what it measured and what it verified");
				problems.add(outOfBounds("batchSize", this.properties.limits().maxBatchSize()));
				problems.add(new Problem(ProblemType.REDIS_ERROR_REPLY,
						ProblemType.REDIS_ERROR_REPLY.detail("a command on pipelining-lab:list",
								"WRONGTYPE Operation against a key holding the wrong kind of value"),
						Map.of("key", "pipelining-lab:list")));
			}
			// The index and the recipes read no Redis.
			if (!endpoint.equals("GET /") && !path.startsWith("/recipes")) {
				problems.add(new Problem(ProblemType.REDIS_UNAVAILABLE,
						ProblemType.REDIS_UNAVAILABLE.detail("Redis at localhost:6379"),
						Map.of("redis", List.of("localhost:6379"))));
			}
			String answer = this.answers.get(endpoint);
			if (answer != null) {
				response(responses, responses.containsKey("202") ? "202" : "200").description(answer);
			}
			problems.forEach((problem) -> problem.describe(responses));
			if (endpoint.equals("POST /runs")) {
				response(responses, "202").addHeaderObject("Location",
						new Header().description("/runs/{id} of the new run").schema(new StringSchema()));
				response(responses, "429").addHeaderObject("Retry-After",
						new Header().description("Seconds to wait before trying again").schema(new IntegerSchema()));
			}
			if (endpoint.equals("GET /runs/{id}/events")) {
				response(responses, "200").content(new Content().addMediaType("text/event-stream", new MediaType()
					.schema(new Schema<>().$ref("#/components/schemas/RunRecord"))
					.example("id:1\nevent:run\ndata:{\"id\":\"" + EXAMPLE_ID + "\",\"status\":\"RUNNING\","
							+ "\"progress\":{\"batchesDone\":40,\"batchesTotal\":100,\"percent\":40.0},...}\n\n")));
			}
		}

		private static Problem outOfBounds(String parameter, long max) {
			return invalid(parameter, parameter + " must be between 1 and " + max + ", got 0");
		}

		private static Problem invalid(String parameter, String detail) {
			return new Problem(ProblemType.INVALID_PARAMETER, detail, Map.of("parameter", parameter));
		}

		/** Described by the catalogue's title; the example shows what else it says. */
		private record Problem(ProblemType type, String detail, Map<String, Object> extra) {

			void describe(ApiResponses responses) {
				Map<String, Object> example = new LinkedHashMap<>();
				example.put("type", this.type.uri().toString());
				example.put("title", this.type.title());
				example.put("status", this.type.status());
				example.put("detail", this.detail);
				example.putAll(this.extra);
				responses
					.addApiResponse(String.valueOf(this.type.status()),
							new ApiResponse().description(this.type.title())
								.content(new Content().addMediaType(
										org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE,
										new MediaType()
											.schema(new Schema<>().$ref("#/components/schemas/ProblemDetail"))
											.example(example))));
			}

		}

		private static ApiResponse response(ApiResponses responses, String status) {
			return Objects.requireNonNull(responses.get(status), () -> "no " + status + " answer described");
		}

		private void requestBody(Operation operation) {
			MediaType body = Objects.requireNonNull(operation.getRequestBody().getContent().get(JSON),
					"POST /runs takes JSON");
			operation.getRequestBody()
				.description("The run to start. kind picks the GET endpoint it mirrors (single, compare, sweep;"
						+ " inferred from variants or batchSizes when left out); the other fields are that endpoint's"
						+ " path and query parameters, with the same names, defaults and bounds; instances, in the body"
						+ " only, runs a single SET or GET run from that many instances started with"
						+ " lab.fleet.join=true. Unknown fields, a field given twice, and fractions or strings where a"
						+ " whole number belongs are rejected; each entry of variants is one variant.");
			body.addExamples("single",
					new Example().summary("One pipelined SET run")
						.value(Map.of("kind", "single", "operation", "set", "mode", "pipelined", "count", 1000000,
								"batchSize", 10000)));
			body.addExamples("compare",
					new Example().summary("Loop against pipelines and MSET")
						.value(Map.of("kind", "compare", "operation", "set", "count", 100000, "batchSize", 1000,
								"variants", List.of("loop", "pipelined-flush-on-close", "multi-key", "async"))));
			body.addExamples("sweep",
					new Example().summary("Throughput against pipeline length")
						.value(Map.of("kind", "sweep", "operation", "get", "count", 100000, "batchSizes",
								List.of(1, 10, 100, 1000, 10000))));
		}

		private static Schema<?> problemSchema() {
			Schema<?> schema = new ObjectSchema().description("An RFC 9457 problem; type is stable, detail is for"
					+ " people, and some problems add properties such as parameter, key, id or retryAfterSeconds");
			// about:blank is Spring's own, for a path no endpoint has.
			schema.addProperty("type",
					new StringSchema().format("uri")
						._enum(Stream
							.concat(Stream.of(ProblemType.values()).map((type) -> type.uri().toString()),
									Stream.of("about:blank"))
							.toList())
						.example(ProblemType.INVALID_PARAMETER.uri().toString()));
			schema.addProperty("title", new StringSchema());
			schema.addProperty("status", new IntegerSchema());
			schema.addProperty("detail", new StringSchema());
			schema.addProperty("instance", new StringSchema().format("uri-reference"));
			schema.addProperty("parameter",
					new StringSchema().description("400: the parameter or body field at fault"));
			schema.addProperty("retryAfterSeconds", new IntegerSchema().description("429: as in Retry-After"));
			schema.setRequired(List.of("type", "title", "status", "detail"));
			schema.additionalProperties(true);
			return schema;
		}

	}

}
