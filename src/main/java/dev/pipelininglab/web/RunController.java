package dev.pipelininglab.web;

import dev.pipelininglab.redis.KeyCleaner;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Sweep;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET endpoints, so a browser address bar and a bare curl are enough. Each turns its path
 * and query parameters into a run specification and hands it to the one measuring path.
 */
@RestController
class RunController {

	private final RunService runs;

	private final RunRequests requests;

	private final KeyCleaner cleaner;

	private final KeySpace keys;

	private final GetRunStops stops;

	RunController(RunService runs, RunRequests requests, KeyCleaner cleaner, KeySpace keys, GetRunStops stops) {
		this.runs = runs;
		this.requests = requests;
		this.cleaner = cleaner;
		this.keys = keys;
		this.stops = stops;
	}

	/**
	 * Every run endpoint of the catalogue: the one matched names the operation and mode.
	 */
	@RunEndpoint.Mapped("/{count}")
	RunResult run(@PathVariable long count, RunParams params, HttpServletRequest request) {
		RunEndpoint endpoint = RunEndpoint.matched(request);
		return this.runs.run(this.requests.single(endpoint.operation(), endpoint.mode(), count, params),
				this.stops.of(request));
	}

	@GetMapping("/compare/{op}/{count}")
	Comparison compare(@PathVariable String op, @PathVariable long count, RunParams params,
			HttpServletRequest request) {
		RunSpec base = this.requests.multiple(RunRequests.operation(op), count, params);
		return this.runs.compare(base, this.requests.withinRunBytes(base, this.requests.variants(params)),
				this.stops.of(request));
	}

	@GetMapping("/sweep/{op}/{count}")
	Sweep sweep(@PathVariable String op, @PathVariable long count, RunParams params, HttpServletRequest request) {
		RunSpec base = this.requests.multiple(RunRequests.operation(op), count, params);
		return this.runs.sweep(base, this.requests.withinRunBytes(base, this.requests.batchSizes(count, params)),
				this.stops.of(request));
	}

	@DeleteMapping("/keys")
	Cleanup deleteKeys() {
		return new Cleanup(this.keys.scanPattern(), this.cleaner.deleteAll());
	}

	/** What {@code DELETE /keys} removed. */
	record Cleanup(String pattern, long deleted) {
	}

}
