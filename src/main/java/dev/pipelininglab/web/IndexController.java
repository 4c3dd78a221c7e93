package dev.pipelininglab.web;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.pipelininglab.redis.ClientSettings;
import dev.pipelininglab.redis.Topology;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;

/** {@code /}: the page, or for {@code Accept: application/json} its endpoints as JSON. */
@Controller
class IndexController {

	static final List<Endpoint> ENDPOINTS = Stream.concat(
			RunEndpoint.ALL.stream()
				.map((run) -> Endpoint.admitted("GET", run.path(), run.example(), run.description())),
			Stream.of(Endpoint.admitted("GET", "/compare/{op}/{count}", "/compare/set/100000",
					"every variant (or those in variants=) side by side on the same keys, with speedups against the"
							+ " loop (op: " + String.join(", ", RunEndpoint.OPERATIONS) + ")"),
					Endpoint.admitted("GET", "/sweep/{op}/{count}", "/sweep/set/100000",
							"pipelined throughput at each batch size in batchSizes= (default 1, 10, 100, 1000, 10000)"),
					new Endpoint("GET", "/recipes/{variant}", "/recipes/pipelined-buffered-500?batchSize=1000",
							"the smallest Spring Boot code for a variant, tested against real Redis, with batchSize and the"
									+ " flush policy filled in: JSON with its cost and catch, or the Java file for"
									+ " Accept: text/plain"),
					Endpoint.admitted("DELETE", "/keys", "/keys",
							"remove every demo key (SCAN + UNLINK on the prefix)"),
					new Endpoint("POST", "/runs", "/runs",
							"start a run as a job from a JSON body (kind, operation, mode, count, batchSize, variants,"
									+ " instances for a fleet run, ...);"
									+ " 202 with Location: /runs/{id}, 429 with Retry-After when every slot is taken"),
					new Endpoint("GET", "/runs", "/runs?limit=20",
							"recent runs, newest first, from their records in Redis"),
					new Endpoint("GET", "/runs/{id}", "/runs/{id}",
							"a run's status (QUEUED, RUNNING, DONE, FAILED, CANCELLED), progress and, when done, results"),
					new Endpoint("GET", "/runs/{id}/events", "/runs/{id}/events",
							"Server-Sent Events with the run's record on every change, until a final status"),
					new Endpoint("DELETE", "/runs/{id}", "/runs/{id}", "cancel a run between batches"),
					new Endpoint("GET", "/runs/{id}/report.{format}", "/runs/{id}/report.csv",
							"a run as a download: json, csv, md (Markdown table) or txt"),
					new Endpoint("GET", "/runs/compare", "/runs/compare?a={id}&b={id}",
							"two runs side by side, each figure of b as a ratio of a's"),
					new Endpoint("GET", "/swagger-ui.html", "/swagger-ui.html",
							"the API description, browsable; spec at /v3/api-docs")))
		.toList();

	private final Topology topology;

	private final List<Parameter> parameters;

	private final ClientSettings settings;

	IndexController(Topology topology, LabSettings properties, ClientSettings settings) {
		this.topology = topology;
		this.parameters = Stream.of(ApiParameter.values())
			.map((parameter) -> Parameter.of(parameter, properties))
			.toList();
		this.settings = settings;
	}

	@ApiProblems(redis = false)
	@GetMapping(path = "/", produces = MediaType.TEXT_HTML_VALUE)
	String page() {
		return "forward:/index.html";
	}

	@ApiProblems(redis = false)
	@GetMapping(path = "/", produces = MediaType.APPLICATION_JSON_VALUE)
	@ResponseBody
	Index index() {
		return new Index("pipelining-lab", this.topology, this.parameters, ENDPOINTS, this.settings.all());
	}

	record Index(String name, Topology topology, List<Parameter> parameters, List<Endpoint> endpoints,
			List<ClientSettings.Tuning> settings) {
	}

	/** With its configured bounds, which the page shows next to its fields. */
	record Parameter(String name, String in, String type, @JsonUnwrapped ApiParameter.Bounds bounds,
			List<String> endpoints, String appliesTo, String description) {

		static Parameter of(ApiParameter parameter, LabSettings properties) {
			return new Parameter(parameter.parameterName(), parameter.in().name().toLowerCase(Locale.ROOT),
					parameter.type().name().toLowerCase(Locale.ROOT), parameter.bounds(properties),
					parameter.endpoints(), parameter.appliesTo(), parameter.description(properties));
		}

	}

	/**
	 * @param admitted whether {@link RunSlotsConfiguration} gates it: a new endpoint
	 * cannot miss the gate
	 */
	record Endpoint(String method, String path, String example, String description, boolean admitted) {

		Endpoint(String method, String path, String example, String description) {
			this(method, path, example, description, false);
		}

		static Endpoint admitted(String method, String path, String example, String description) {
			return new Endpoint(method, path, example, description, true);
		}

	}

}
