package dev.pipelininglab.web;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.LabProperties;
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
 * The API description at {@code /v3/api-docs} (and Swagger UI at
 * {@code /swagger-ui.html}). Written here rather than in annotations on the controllers
 * so the bounds it states are the configured ones ({@code lab.limits.*}), and so the
 * controllers stay readable. Endpoint summaries come from the index page's own list.
 */
@Configuration(proxyBeanMethods = false)
class ApiDocumentation {

	static final String PROBLEM_JSON = "application/problem+json";

	private static final String JSON = "application/json";

	private static final String SINGLE = "Single runs";

	private static final String MULTIPLE = "Comparisons and sweeps";

	private static final String JOBS = "Runs as jobs";

	private static final String LAB = "Lab";

	/**
	 * Which query parameters each GET endpoint accepts; {@link RunRequests} rejects the
	 * others with a 400.
	 */
	private static final Map<String, List<String>> QUERY = Map.ofEntries(
			Map.entry("/pipeset/{count}", List.of("batchSize", "sample", "ttl", "flushPolicy", "rtt")),
			Map.entry("/pipeget/{count}", List.of("batchSize", "sample", "flushPolicy", "rtt")),
			Map.entry("/piperpop/{count}", List.of("batchSize", "sample", "flushPolicy", "rtt")),
			Map.entry("/pipeping/{count}", List.of("batchSize", "sample", "flushPolicy", "rtt")),
			Map.entry("/listinput/{count}", List.of("batchSize", "sample", "flushPolicy", "rtt")),
			Map.entry("/loopset/{count}", List.of("batchSize", "sample", "ttl", "rtt")),
			Map.entry("/loopget/{count}", List.of("batchSize", "sample", "rtt")),
			Map.entry("/looprpop/{count}", List.of("batchSize", "sample", "rtt")),
			Map.entry("/loopping/{count}", List.of("batchSize", "sample", "rtt")),
			Map.entry("/compare/{op}/{count}",
					List.of("batchSize", "sample", "ttl", "flushPolicy", "rtt", "repeat", "variants")),
			Map.entry("/sweep/{op}/{count}",
					List.of("batchSize", "sample", "ttl", "flushPolicy", "rtt", "repeat", "batchSizes")),
			Map.entry("/runs", List.of("limit")));

	private static final String EXAMPLE_ID = "0b6f4f5e-7d1c-4f43-9a55-2f1d8c3e6a10";

	@Bean
	OpenAPI labOpenApi() {
		return new OpenAPI()
			.info(new Info().title("pipelining-lab")
				.version("0.1.0")
				.description("Measures Redis pipelining with Spring Data Redis and Lettuce: a loop of blocking calls"
						+ " against executePipelined, multi-key commands, a Lua script and Lettuce async, for SET, GET,"
						+ " RPOP and PING. GET endpoints answer when the run is done; POST /runs starts the same runs"
						+ " as jobs to follow with Server-Sent Events. Every error is an RFC 9457 problem.")
				.license(new License().name("see the repository")))
			.addTagsItem(new Tag().name(SINGLE).description("One operation in one mode; answers when done"))
			.addTagsItem(new Tag().name(MULTIPLE).description("Variants or batch sizes side by side on the same keys"))
			.addTagsItem(new Tag().name(JOBS).description("Long runs started, followed and cancelled as jobs"))
			.addTagsItem(new Tag().name(LAB).description("The index and demo key cleanup"));
	}

	@Bean
	OpenApiCustomizer labApiCustomizer(LabProperties properties) {
		return new Customizer(properties)::customise;
	}

	private static final class Customizer {

		private final LabProperties.Limits limits;

		private final LabProperties properties;

		Customizer(LabProperties properties) {
			this.properties = properties;
			this.limits = properties.limits();
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
			return (path.equals("/") || path.equals("/keys")) ? LAB : SINGLE;
		}

		private void parameters(String path, Operation operation) {
			if (operation.getParameters() == null) {
				return;
			}
			List<String> query = QUERY.getOrDefault(path, List.of());
			operation.getParameters()
				.removeIf((parameter) -> "query".equals(parameter.getIn()) && !query.contains(parameter.getName()));
			operation.getParameters().forEach(this::describe);
		}

		private void describe(Parameter parameter) {
			int defaultBatch = this.limits.defaultBatchSize();
			switch (parameter.getName()) {
				case "count" ->
					set(parameter, "How many commands: keys to SET or GET, elements to RPOP or RPUSH, PINGs",
							integer(1, this.limits.maxCount(), null), 10000);
				case "op" -> set(parameter, "The command to run",
						new StringSchema()._enum(List.of("set", "get", "rpop", "ping")), "set");
				case "batchSize" -> set(parameter,
						"Commands per pipeline, multi-key command or script call; at most" + " count. Default "
								+ defaultBatch + " (or count when smaller)",
						integer(1, this.limits.maxBatchSize(), defaultBatch), 1000);
				case "sample" -> set(parameter, "How many values to echo back",
						integer(0, this.limits.maxSample(), this.limits.defaultSample()), 3);
				case "ttl" -> set(parameter, "SET only: seconds until the keys expire",
						integer(1, RunRequests.MAX_TTL_SECONDS, null), 300);
				case "flushPolicy" -> set(parameter,
						"When Lettuce writes pipelined commands to the socket:"
								+ " flush-each-command, flush-on-close or buffered-<n>. Default "
								+ this.properties.pipeline().flushPolicy() + " (lab.pipeline.flush-policy)",
						new StringSchema().pattern("^(flush-each-command|flush-on-close|buffered-[1-9][0-9]*)$"),
						"buffered-1000");
				case "rtt" -> set(parameter,
						"Milliseconds of round-trip time to add through the lab's latency"
								+ " relay, to see pipelining on a slow network (standalone Redis only)",
						new NumberSchema().minimum(BigDecimal.ZERO)
							.exclusiveMinimum(true)
							.maximum(BigDecimal.valueOf(RunRequests.MAX_RTT_MILLIS)),
						2);
				case "repeat" -> set(parameter, "Timed passes per variant or batch size; the median is reported",
						integer(1, this.limits.maxRepeat(), 1), 3);
				case "variants" -> set(parameter, "Comma-separated variants, in order: loop, pipelined,"
						+ " pipelined-<flush policy> (e.g. pipelined-buffered-1000), multi-key, multi-key-hashtag,"
						+ " script, async. Default: loop, each flush policy, multi-key, multi-key-hashtag, script and"
						+ " async", new StringSchema(), "loop,pipelined,multi-key");
				case "batchSizes" -> set(parameter,
						"Comma-separated batch sizes, at most " + RunRequests.MAX_SWEEP_POINTS + ", each between 1 and "
								+ this.limits.maxBatchSize() + " and at most count. Default "
								+ RunRequests.DEFAULT_SWEEP + " up to count",
						new StringSchema(), "1,10,100,1000,10000");
				case "limit" ->
					set(parameter, "How many runs to list, newest first", integer(1, this.properties.jobs().history(),
							Math.min(RunRequests.DEFAULT_LIST_LIMIT, this.properties.jobs().history())), 20);
				case "id" -> set(parameter, "The run's id, from the Location of POST /runs",
						new StringSchema().format("uuid"), EXAMPLE_ID);
				default -> {
				}
			}
		}

		private static void set(Parameter parameter, String description, Schema<?> schema, Object example) {
			parameter.description(description).schema(schema).example(example);
		}

		private static Schema<?> integer(long min, long max, Integer defaultValue) {
			Schema<Number> schema = new IntegerSchema().format((max > Integer.MAX_VALUE) ? "int64" : "int32")
				.minimum(BigDecimal.valueOf(min))
				.maximum(BigDecimal.valueOf(max));
			if (defaultValue != null) {
				schema.setDefault(defaultValue);
			}
			return schema;
		}

		private void responses(String verb, String path, Operation operation) {
			ApiResponses responses = operation.getResponses();
			String endpoint = verb + " " + path;
			boolean runEndpoint = QUERY.containsKey(path) && !path.equals("/runs");
			if (runEndpoint) {
				responses.get("200").description("The run is done: what it measured and what it verified");
				problem(responses, "400", "A parameter is out of bounds, malformed, or does not apply to this endpoint",
						"invalid-parameter", "Invalid parameter",
						"batchSize must be between 1 and " + this.limits.maxBatchSize() + ", got 0",
						Map.of("parameter", "batchSize"));
				problem(responses, "409", "Redis refused a command (e.g. WRONGTYPE on the demo list)",
						"redis-error-reply", "Redis refused a command",
						"Redis answered a command on pipelining-lab:list"
								+ " with an error: WRONGTYPE Operation against a key holding the wrong kind of value",
						Map.of("key", "pipelining-lab:list"));
			}
			switch (endpoint) {
				case "POST /runs" -> {
					responses.remove("200");
					responses.addApiResponse("202",
							new ApiResponse().description("Accepted: the run is QUEUED; follow it at the Location")
								.addHeaderObject("Location",
										new Header().description("/runs/{id} of the new run")
											.schema(new StringSchema()))
								.content(json("#/components/schemas/RunRecord")));
					problem(responses, "400",
							"The body is not JSON, has a field of the wrong type or an unknown"
									+ " field, or a value is out of bounds; parameter names the field (or body)",
							"invalid-parameter", "Invalid parameter",
							"count must be between 1 and " + this.limits.maxCount() + ", got 0",
							Map.of("parameter", "count"));
					problem(responses, "429",
							"Every run slot of this instance is taken (lab.jobs.max-concurrent);"
									+ " Retry-After says when to try again",
							"too-busy", "Too many runs at once",
							"This instance already runs 2 runs (lab.jobs.max-concurrent, lab.jobs.queue-capacity);"
									+ " try again later",
							Map.of("retryAfterSeconds", 5));
					responses.get("429")
						.addHeaderObject("Retry-After", new Header().description("Seconds to wait before trying again")
							.schema(new IntegerSchema()));
				}
				case "GET /runs" -> {
					responses.get("200").description("Recent runs, newest first");
					problem(responses, "400", "limit is out of bounds", "invalid-parameter", "Invalid parameter",
							"limit must be between 1 and " + this.properties.jobs().history() + ", got 0",
							Map.of("parameter", "limit"));
				}
				case "GET /runs/{id}" -> {
					responses.get("200").description("The run's record: status, progress, and results when DONE");
					notFound(responses);
				}
				case "DELETE /runs/{id}" -> {
					responses.remove("200");
					responses.addApiResponse("202",
							new ApiResponse()
								.description(
										"Cancel requested: the run stops before its next batch and becomes CANCELLED")
								.content(json("#/components/schemas/RunRecord")));
					notFound(responses);
					problem(responses, "409", "The run has already finished", "run-finished", "Run already finished",
							"Run " + EXAMPLE_ID + " has already finished with status DONE; there is nothing to cancel",
							Map.of("id", EXAMPLE_ID, "runStatus", "DONE"));
				}
				case "GET /runs/{id}/events" -> {
					responses.addApiResponse("200", new ApiResponse()
						.description("text/event-stream of events named run, each carrying the run's record as JSON,"
								+ " sent when its status or progress changes (at most every "
								+ this.properties.jobs().progressInterval().toMillis() + " ms); the stream ends after"
								+ " the first record with a final status (DONE, FAILED or CANCELLED)")
						.content(new Content().addMediaType("text/event-stream", new MediaType()
							.schema(new Schema<>().$ref("#/components/schemas/RunRecord"))
							.example("id:1\nevent:run\ndata:{\"id\":\"" + EXAMPLE_ID + "\",\"status\":\"RUNNING\","
									+ "\"progress\":{\"batchesDone\":40,\"batchesTotal\":100,\"percent\":40.0},...}\n\n"))));
					notFound(responses);
				}
				case "DELETE /keys" -> responses.get("200").description("How many demo keys were removed");
				case "GET /" -> responses.get("200")
					.description("The web page for browsers (text/html), the list of"
							+ " endpoints for Accept: application/json");
				default -> {
				}
			}
			if (!endpoint.equals("GET /")) {
				problem(responses, "503", "Redis cannot be reached or did not answer in time", "redis-unavailable",
						"Redis unavailable",
						"Cannot reach Redis at localhost:6379. Start Redis or point"
								+ " spring.data.redis.* at one; the app reconnects by itself.",
						Map.of("redis", List.of("localhost:6379")));
			}
		}

		private static void notFound(ApiResponses responses) {
			problem(responses, "404", "No run has this id: it never existed, expired, or DELETE /keys removed it",
					"run-not-found", "Run not found", "No run with id '" + EXAMPLE_ID + "': it never existed, its"
							+ " record expired, or DELETE /keys removed it",
					Map.of("id", EXAMPLE_ID));
		}

		private static void problem(ApiResponses responses, String status, String description, String type,
				String title, String detail, Map<String, Object> extra) {
			Map<String, Object> example = new LinkedHashMap<>();
			example.put("type", "urn:pipelining-lab:problem:" + type);
			example.put("title", title);
			example.put("status", Integer.parseInt(status));
			example.put("detail", detail);
			example.putAll(extra);
			responses.addApiResponse(status,
					new ApiResponse().description(description)
						.content(new Content().addMediaType(PROBLEM_JSON,
								new MediaType().schema(new Schema<>().$ref("#/components/schemas/ProblemDetail"))
									.example(example))));
		}

		private static Content json(String ref) {
			return new Content().addMediaType(JSON, new MediaType().schema(new Schema<>().$ref(ref)));
		}

		private void requestBody(Operation operation) {
			MediaType body = operation.getRequestBody().getContent().get(JSON);
			operation.getRequestBody()
				.description("The run to start. kind picks the GET endpoint it mirrors (single, compare, sweep;"
						+ " inferred from variants or batchSizes when left out); the other fields are that endpoint's"
						+ " path and query parameters, with the same names, defaults and bounds: count 1 to "
						+ this.limits.maxCount() + ", batchSize 1 to " + this.limits.maxBatchSize() + " and at most"
						+ " count, sample 0 to " + this.limits.maxSample() + ", repeat 1 to " + this.limits.maxRepeat()
						+ ". Unknown fields are rejected.");
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
			schema.addProperty("type",
					new StringSchema().format("uri").example("urn:pipelining-lab:problem:invalid-parameter"));
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
