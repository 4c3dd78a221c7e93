package dev.pipelininglab.web;

import dev.pipelininglab.redis.KeyCleaner;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunService;
import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET endpoints, so a browser address bar and a bare curl are enough. Each turns its path and parameters into
 * a run specification and hands it to the one measuring path.
 */
@RestController
class RunController {

	private final RunService runs;

	private final RunRequests requests;

	private final KeyCleaner cleaner;

	private final KeySpace keys;

	RunController(RunService runs, RunRequests requests, KeyCleaner cleaner, KeySpace keys) {
		this.runs = runs;
		this.requests = requests;
		this.cleaner = cleaner;
		this.keys = keys;
	}

	@GetMapping("/pipeset/{count}")
	RunResult pipeSet(@PathVariable long count, @RequestParam(required = false) @Nullable Integer batchSize,
			@RequestParam(required = false) @Nullable Integer sample, @RequestParam(required = false) @Nullable Long ttl) {
		return run(Operation.SET, Mode.PIPELINED, count, batchSize, sample, ttl);
	}

	@GetMapping("/pipeget/{count}")
	RunResult pipeGet(@PathVariable long count, @RequestParam(required = false) @Nullable Integer batchSize,
			@RequestParam(required = false) @Nullable Integer sample) {
		return run(Operation.GET, Mode.PIPELINED, count, batchSize, sample, null);
	}

	@GetMapping("/piperpop/{count}")
	RunResult pipeRpop(@PathVariable long count, @RequestParam(required = false) @Nullable Integer batchSize,
			@RequestParam(required = false) @Nullable Integer sample) {
		return run(Operation.RPOP, Mode.PIPELINED, count, batchSize, sample, null);
	}

	@GetMapping("/loopset/{count}")
	RunResult loopSet(@PathVariable long count, @RequestParam(required = false) @Nullable Integer sample,
			@RequestParam(required = false) @Nullable Long ttl) {
		return run(Operation.SET, Mode.LOOP, count, null, sample, ttl);
	}

	@GetMapping("/loopget/{count}")
	RunResult loopGet(@PathVariable long count, @RequestParam(required = false) @Nullable Integer sample) {
		return run(Operation.GET, Mode.LOOP, count, null, sample, null);
	}

	@GetMapping("/looprpop/{count}")
	RunResult loopRpop(@PathVariable long count, @RequestParam(required = false) @Nullable Integer sample) {
		return run(Operation.RPOP, Mode.LOOP, count, null, sample, null);
	}

	@GetMapping("/listinput/{count}")
	RunResult listInput(@PathVariable long count, @RequestParam(required = false) @Nullable Integer batchSize) {
		return run(Operation.RPUSH, Mode.PIPELINED, count, batchSize, 0, null);
	}

	@GetMapping("/compare/{op}/{count}")
	Comparison compare(@PathVariable String op, @PathVariable long count,
			@RequestParam(required = false) @Nullable Integer batchSize,
			@RequestParam(required = false) @Nullable Integer sample, @RequestParam(required = false) @Nullable Long ttl) {
		Operation operation = RunRequests.operation(op);
		return this.runs.compare(this.requests.spec(operation, Mode.LOOP, count, batchSize, sample, ttl));
	}

	@DeleteMapping("/keys")
	Cleanup deleteKeys() {
		return new Cleanup(this.keys.scanPattern(), this.cleaner.deleteAll());
	}

	private RunResult run(Operation operation, Mode mode, long count, @Nullable Integer batchSize,
			@Nullable Integer sample, @Nullable Long ttl) {
		return this.runs.run(this.requests.spec(operation, mode, count, batchSize, sample, ttl));
	}

	/** What {@code DELETE /keys} removed. */
	record Cleanup(String pattern, long deleted) {
	}

}
