package dev.pipelininglab.web;

import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.pipelininglab.LabProperties;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * {@code /}: the page for a browser, the same list of endpoints as JSON for
 * {@code Accept: application/json}.
 */
@Controller
class IndexController {

	static final List<Endpoint> ENDPOINTS = List.of(
			new Endpoint("GET", "/pipeset/{count}", "/pipeset/10000", "SET count keys through executePipelined"),
			new Endpoint("GET", "/pipeget/{count}", "/pipeget/10000", "GET count keys through executePipelined"),
			new Endpoint("GET", "/piperpop/{count}", "/piperpop/10000",
					"RPOP count elements of the demo list through executePipelined"),
			new Endpoint("GET", "/pipeping/{count}", "/pipeping/10000", "PING count times through executePipelined"),
			new Endpoint("GET", "/loopset/{count}", "/loopset/10000", "SET count keys, one blocking call each"),
			new Endpoint("GET", "/loopget/{count}", "/loopget/10000", "GET count keys, one blocking call each"),
			new Endpoint("GET", "/looprpop/{count}", "/looprpop/10000", "RPOP count elements, one blocking call each"),
			new Endpoint("GET", "/loopping/{count}", "/loopping/10000", "PING count times, one blocking call each"),
			new Endpoint("GET", "/listinput/{count}", "/listinput/10000",
					"RPUSH count elements onto the demo list (pipelined) so RPOP has data"),
			new Endpoint("GET", "/compare/{op}/{count}", "/compare/set/100000",
					"every variant (or those in variants=) side by side on the same keys, with speedups against the"
							+ " loop (op: set, get, rpop, ping)"),
			new Endpoint("GET", "/sweep/{op}/{count}", "/sweep/set/100000",
					"pipelined throughput at each batch size in batchSizes= (default 1, 10, 100, 1000, 10000)"),
			new Endpoint("DELETE", "/keys", "/keys", "remove every demo key (SCAN + UNLINK on the prefix)"),
			new Endpoint("POST", "/runs", "/runs",
					"start a run as a job from a JSON body (kind, operation, mode, count, batchSize, variants, ...);"
							+ " 202 with Location: /runs/{id}, 429 with Retry-After when every slot is taken"),
			new Endpoint("GET", "/runs", "/runs?limit=20", "recent runs, newest first, from their records in Redis"),
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
					"the API description, browsable; spec at /v3/api-docs"));

	private final Topology topology;

	private final List<Parameter> parameters;

	IndexController(Topology topology, LabProperties properties) {
		this.topology = topology;
		this.parameters = Stream.of(ApiParameter.values())
			.map((parameter) -> Parameter.of(parameter, properties))
			.toList();
	}

	@GetMapping(path = "/", produces = MediaType.TEXT_HTML_VALUE)
	String page() {
		return "forward:/index.html";
	}

	@GetMapping(path = "/", produces = MediaType.APPLICATION_JSON_VALUE)
	@ResponseBody
	Index index() {
		return new Index("pipelining-lab", this.topology, this.parameters, ENDPOINTS);
	}

	record Index(String name, Topology topology, List<Parameter> parameters, List<Endpoint> endpoints) {
	}

	/**
	 * A parameter of the catalogue with its configured bounds; the page shows them next
	 * to its fields.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record Parameter(String name, String in, String type, @Nullable Number minimum, @Nullable Number maximum,
			@JsonProperty("default") @Nullable Object defaultValue, @Nullable String pattern, List<String> endpoints,
			String appliesTo, String description) {

		static Parameter of(ApiParameter parameter, LabProperties properties) {
			ApiParameter.Bounds bounds = parameter.bounds(properties);
			return new Parameter(parameter.parameterName(), parameter.in().toString(), parameter.type().toString(),
					bounds.minimum(), bounds.maximum(), bounds.defaultValue(), bounds.pattern(), parameter.endpoints(),
					parameter.appliesTo(), parameter.description());
		}

	}

	record Endpoint(String method, String path, String example, String description) {
	}

}
