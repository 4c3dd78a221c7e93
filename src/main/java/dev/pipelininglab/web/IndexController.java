package dev.pipelininglab.web;

import java.util.List;

import dev.pipelininglab.redis.Topology;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;

/** {@code /}: the page for a browser, the same list of endpoints as JSON for {@code Accept: application/json}. */
@Controller
class IndexController {

	static final List<Endpoint> ENDPOINTS = List.of(
			new Endpoint("GET", "/pipeset/{count}", "/pipeset/10000", "SET count keys through executePipelined"),
			new Endpoint("GET", "/pipeget/{count}", "/pipeget/10000", "GET count keys through executePipelined"),
			new Endpoint("GET", "/piperpop/{count}", "/piperpop/10000",
					"RPOP count elements of the demo list through executePipelined"),
			new Endpoint("GET", "/loopset/{count}", "/loopset/10000", "SET count keys, one blocking call each"),
			new Endpoint("GET", "/loopget/{count}", "/loopget/10000", "GET count keys, one blocking call each"),
			new Endpoint("GET", "/looprpop/{count}", "/looprpop/10000", "RPOP count elements, one blocking call each"),
			new Endpoint("GET", "/listinput/{count}", "/listinput/10000",
					"RPUSH count elements onto the demo list (pipelined) so RPOP has data"),
			new Endpoint("GET", "/compare/{op}/{count}", "/compare/set/100000",
					"loop, pipelined and multi-key side by side on the same keys, with speedups (op: set, get, rpop)"),
			new Endpoint("DELETE", "/keys", "/keys", "remove every demo key (SCAN + UNLINK on the prefix)"));

	private final Topology topology;

	IndexController(Topology topology) {
		this.topology = topology;
	}

	@GetMapping(path = "/", produces = MediaType.TEXT_HTML_VALUE)
	String page() {
		return "forward:/index.html";
	}

	@GetMapping(path = "/", produces = MediaType.APPLICATION_JSON_VALUE)
	@ResponseBody
	Index index() {
		return new Index("pipelining-lab", this.topology, List.of("batchSize", "sample", "ttl"), ENDPOINTS);
	}

	record Index(String name, Topology topology, List<String> queryParameters, List<Endpoint> endpoints) {
	}

	record Endpoint(String method, String path, String example, String description) {
	}

}
