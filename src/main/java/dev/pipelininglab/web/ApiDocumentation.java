package dev.pipelininglab.web;

import java.math.BigDecimal;
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
import org.springdoc.core.customizers.OperationCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The API description ({@code /v3/api-docs}): parameters, their configured bounds and the
 * problems they bring from the catalogue, summaries from the index's list; what a handler
 * answers sits on the handler (springdoc's {@code @ApiResponse}, {@link ApiProblems}).
 */
@Configuration(proxyBeanMethods = false)
class ApiDocumentation {

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

	/**
	 * What the catalogue tells of each path: its tag, the index's summary, its parameters
	 * with their configured bounds, and the problems they bring.
	 */
	@Bean
	OpenApiCustomizer labApiCustomizer(LabSettings properties) {
		return (api) -> {
			api.getComponents().addSchemas("ProblemDetail", problemSchema());
			api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
				operation.setTags(List.of(tag(path)));
				IndexController.ENDPOINTS.stream()
					.filter((endpoint) -> endpoint.method().equals(method.name()) && endpoint.path().equals(path))
					.findFirst()
					.ifPresent((endpoint) -> operation.summary(endpoint.description()));
				if (path.equals("/")) {
					operation.summary("the web page, or this app's endpoints as JSON for Accept: application/json");
				}
				if (operation.getParameters() != null) {
					parameters(properties, path, operation);
				}
				operation.getResponses().forEach((status, response) -> events(response));
			}));
		};
	}

	/** What a handler says of itself ({@link ApiProblems}, its body), not of its path. */
	@Bean
	OperationCustomizer labOperationCustomizer(LabSettings properties, RunSlots slots) {
		return (operation, handler) -> {
			ApiProblems problems = handler.getMethodAnnotation(ApiProblems.class);
			Stream.of((problems != null) ? problems.value() : new ProblemType[0])
				.forEach((type) -> example(properties, slots.max(), type).describe(operation.getResponses()));
			if (problems == null || problems.redis()) {
				new Problem(ProblemType.REDIS_UNAVAILABLE,
						ProblemType.REDIS_UNAVAILABLE.detail("Redis at localhost:6379"),
						Map.of("redis", List.of("localhost:6379")))
					.describe(operation.getResponses());
			}
			// A body's fields are the catalogue's parameters too.
			if (Stream.of(handler.getMethodParameters())
				.anyMatch((parameter) -> parameter.getParameterType() == RunJobRequest.class)) {
				outOfBounds(ApiParameter.COUNT, properties).describe(operation.getResponses());
			}
			return operation;
		};
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

	/**
	 * Only the catalogue's parameters of this path, each with its configured bounds; a
	 * 400 for the first that has bounds, a 404 for a run's id.
	 */
	private static void parameters(LabSettings properties, String path, Operation operation) {
		List<String> query = ApiParameter.query(path).stream().map(ApiParameter::parameterName).toList();
		operation.getParameters()
			.removeIf((parameter) -> "query".equals(parameter.getIn()) && !query.contains(parameter.getName()));
		operation.getParameters().forEach((parameter) -> describe(properties, path, parameter));
		List<ApiParameter> known = operation.getParameters()
			.stream()
			.flatMap((parameter) -> ApiParameter.named(parameter.getName()).stream())
			.toList();
		known.stream()
			.filter((parameter) -> parameter.bounds(properties).maximum() != null)
			.findFirst()
			.map((parameter) -> outOfBounds(parameter, properties))
			.or(() -> known.stream()
				.filter((parameter) -> parameter.in() == ApiParameter.In.QUERY
						|| parameter.bounds(properties).pattern() != null)
				.findFirst()
				.map((parameter) -> invalid(parameter.parameterName(), parameter.parameterName() + " must be given")))
			.ifPresent((problem) -> problem.describe(operation.getResponses()));
		if (known.contains(ApiParameter.ID)) {
			example(properties, 0, ProblemType.RUN_NOT_FOUND).describe(operation.getResponses());
		}
	}

	private static void describe(LabSettings properties, String path, Parameter parameter) {
		ApiParameter.named(parameter.getName()).ifPresent((known) -> {
			// Try it out sends every example and default: on /compare and /sweep one that
			// only some operations' runs take (ttl, keys, ratio) would be refused for the
			// others.
			List<String> endpoints = known.endpoints();
			boolean byOperation = Endpoints.MULTIPLE.contains(path) && !endpoints.containsAll(Endpoints.PIPELINED)
					&& !Endpoints.MULTIPLE.containsAll(endpoints);
			ApiParameter.Bounds bounds = known.bounds(properties);
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
			schema.setPattern(bounds.pattern());
			if (bounds.defaultValue() != null && !byOperation) {
				((Schema<Object>) schema).setDefault(bounds.defaultValue());
			}
			parameter.description(known.description(properties))
				.schema(schema)
				.example(byOperation ? null : known.example());
		});
	}

	/** An event stream's example shows the record it sends, which springdoc cannot. */
	private static void events(ApiResponse response) {
		MediaType stream = (response.getContent() != null) ? response.getContent().get("text/event-stream") : null;
		if (stream != null) {
			stream.schema(new Schema<>().$ref("#/components/schemas/RunRecord"))
				.example("id:1\nevent:run\ndata:{\"id\":\"" + EXAMPLE_ID + "\",\"status\":\"RUNNING\","
						+ "\"progress\":{\"batchesDone\":40,\"batchesTotal\":100,\"percent\":40.0},...}\n\n");
		}
	}

	/** The example of a problem type; the 429 names the one limit as configured. */
	private static Problem example(LabSettings properties, int maxConcurrent, ProblemType type) {
		return switch (type) {
			case RUN_NOT_FOUND -> new Problem(type, type.detail(EXAMPLE_ID), Map.of("id", EXAMPLE_ID));
			case RUN_FINISHED ->
				new Problem(type, type.detail(EXAMPLE_ID, "DONE"), Map.of("id", EXAMPLE_ID, "runStatus", "DONE"));
			case TOO_BUSY ->
				new Problem(type, JobsFullException.slotsTaken(maxConcurrent, properties.jobs().queueCapacity()),
						Map.of("retryAfterSeconds", 5));
			case REDIS_ERROR_REPLY -> new Problem(type,
					type.detail("a command on pipelining-lab:list",
							"WRONGTYPE Operation against a key holding the wrong kind of value"),
					Map.of("key", "pipelining-lab:list"));
			default -> new Problem(type, type.title(), Map.of());
		};
	}

	private static Problem outOfBounds(ApiParameter parameter, LabSettings properties) {
		ApiParameter.Bounds bounds = parameter.bounds(properties);
		String name = parameter.parameterName();
		return invalid(name, name + " must be between " + bounds.minimum() + " and " + bounds.maximum() + ", got 0");
	}

	private static Problem invalid(String parameter, String detail) {
		return new Problem(ProblemType.INVALID_PARAMETER, detail, Map.of("parameter", parameter));
	}

	/**
	 * Described by the catalogue's title, the example shows what else it says; a 429
	 * carries Retry-After, as every TOO_BUSY answer does.
	 */
	private record Problem(ProblemType type, String detail, Map<String, Object> extra) {

		void describe(ApiResponses responses) {
			Map<String, Object> example = new LinkedHashMap<>();
			example.put("type", this.type.uri().toString());
			example.put("title", this.type.title());
			example.put("status", this.type.status());
			example.put("detail", this.detail);
			example.putAll(this.extra);
			ApiResponse response = responses.computeIfAbsent(String.valueOf(this.type.status()),
					(status) -> new ApiResponse().description(this.type.title()));
			response
				.content(new Content().addMediaType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE,
						new MediaType().schema(new Schema<>().$ref("#/components/schemas/ProblemDetail"))
							.example(example)));
			if (this.type == ProblemType.TOO_BUSY) {
				response.addHeaderObject("Retry-After",
						new Header().description("Seconds to wait before trying again").schema(new IntegerSchema()));
			}
		}

	}

	private static Schema<?> problemSchema() {
		Schema<?> schema = new ObjectSchema().description("An RFC 9457 problem; type is stable, detail is for"
				+ " people, and some problems add properties such as parameter, key, id or retryAfterSeconds");
		// about:blank is Spring's own, for a path no endpoint has.
		schema.addProperty("type", new StringSchema().format("uri")
			._enum(Stream
				.concat(Stream.of(ProblemType.values()).map((type) -> type.uri().toString()), Stream.of("about:blank"))
				.toList())
			.example(ProblemType.INVALID_PARAMETER.uri().toString()));
		schema.addProperty("title", new StringSchema());
		schema.addProperty("status", new IntegerSchema());
		schema.addProperty("detail", new StringSchema());
		schema.addProperty("instance", new StringSchema().format("uri-reference"));
		schema.addProperty("parameter", new StringSchema().description("400: the parameter or body field at fault"));
		schema.addProperty("retryAfterSeconds", new IntegerSchema().description("429: as in Retry-After"));
		schema.setRequired(List.of("type", "title", "status", "detail"));
		schema.additionalProperties(true);
		return schema;
	}

}
