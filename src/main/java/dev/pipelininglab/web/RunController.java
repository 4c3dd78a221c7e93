package dev.pipelininglab.web;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.job.RunExecutor;
import dev.pipelininglab.job.RunPlan;
import dev.pipelininglab.redis.KeyCleaner;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.Sweep;
import dev.pipelininglab.web.tomcat.CallerConnection;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET endpoints, so a browser address bar and a bare curl are enough. Each turns its path
 * and query parameters into a run plan and waits for it on the one run executor.
 */
@RestController
class RunController {

	/** What a run endpoint's 200 says, on each of its handlers. */
	static final String DONE = "The run is done: what it measured and what it verified";

	private final RunExecutor jobs;

	private final RunRequests requests;

	private final KeyCleaner cleaner;

	private final KeySpace keys;

	RunController(RunExecutor jobs, RunRequests requests, KeyCleaner cleaner, KeySpace keys) {
		this.jobs = jobs;
		this.requests = requests;
		this.cleaner = cleaner;
		this.keys = keys;
	}

	/**
	 * A run endpoint of the catalogue, through its handler ({@link RunEndpointMappings}).
	 */
	ResponseEntity<RunResult> single(RunEndpoint endpoint, long count, RunParams params, HttpServletRequest request) {
		return run(RunPlan.single(this.requests.single(endpoint.operation(), endpoint.mode(), count, params)),
				RunResult.class, request);
	}

	@ApiResponse(responseCode = "200", description = DONE)
	@ApiProblems(ProblemType.REDIS_ERROR_REPLY)
	@GetMapping("/compare/{op}/{count}")
	ResponseEntity<Comparison> compare(@PathVariable String op, @PathVariable long count, RunParams params,
			HttpServletRequest request) {
		return run(this.requests.compare(RunRequests.operation(op), count, params), Comparison.class, request);
	}

	@ApiResponse(responseCode = "200", description = DONE)
	@ApiProblems(ProblemType.REDIS_ERROR_REPLY)
	@GetMapping("/sweep/{op}/{count}")
	ResponseEntity<Sweep> sweep(@PathVariable String op, @PathVariable long count, RunParams params,
			HttpServletRequest request) {
		return run(this.requests.sweep(RunRequests.operation(op), count, params), Sweep.class, request);
	}

	/**
	 * {@code /compare} and {@code /sweep} missing a path segment ({@code /compare/set}):
	 * a 400 naming it rather than a bare 404 (a run endpoint's own handler answers
	 * {@code /loopget/}, {@link RunEndpointMappings}).
	 */
	@Hidden
	@GetMapping({ "/compare", "/compare/", "/sweep", "/sweep/" })
	void noOperation() {
		throw new InvalidParameterException("op", "must be given in the path, e.g. /compare/set/10000");
	}

	@Hidden
	@GetMapping({ "/compare/{op}", "/compare/{op}/", "/sweep/{op}", "/sweep/{op}/" })
	void noCount(@PathVariable String op) {
		// A wrong operation is the first thing to fix.
		RunRequests.operation(op);
		throw new InvalidParameterException("count", "must be given in the path, e.g. /compare/" + op + "/10000");
	}

	/** Where its record is: the URL itself would run it again. */
	private <T> ResponseEntity<T> run(RunPlan plan, Class<T> answer, HttpServletRequest request) {
		RunExecutor.Answer ran = this.jobs.run(plan, CallerConnection.of(request)::gone);
		return ResponseEntity.ok()
			.header(HttpHeaders.CONTENT_LOCATION, request.getContextPath() + "/runs/" + ran.id())
			.body(answer.cast(ran.result()));
	}

	@ApiResponse(responseCode = "200", description = "How many demo keys were removed")
	@DeleteMapping("/keys")
	Cleanup deleteKeys() {
		return new Cleanup(this.keys.scanPattern(), this.jobs.withSlot(this.cleaner::deleteAll));
	}

	record Cleanup(String pattern, long deleted) {
	}

}
