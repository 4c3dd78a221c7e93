package dev.pipelininglab.web;

import dev.pipelininglab.redis.KeyCleaner;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
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

	@GetMapping("/pipeset/{count}")
	RunResult pipeSet(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.SET, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/pipeget/{count}")
	RunResult pipeGet(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.GET, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/piperpop/{count}")
	RunResult pipeRpop(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.RPOP, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/pipeping/{count}")
	RunResult pipePing(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.PING, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/loopset/{count}")
	RunResult loopSet(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.SET, Mode.LOOP, count, params, request);
	}

	@GetMapping("/loopget/{count}")
	RunResult loopGet(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.GET, Mode.LOOP, count, params, request);
	}

	@GetMapping("/looprpop/{count}")
	RunResult loopRpop(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.RPOP, Mode.LOOP, count, params, request);
	}

	@GetMapping("/loopping/{count}")
	RunResult loopPing(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.PING, Mode.LOOP, count, params, request);
	}

	@GetMapping("/pipeincr/{count}")
	RunResult pipeIncr(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.INCR, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/pipehset/{count}")
	RunResult pipeHset(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.HSET, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/pipesadd/{count}")
	RunResult pipeSadd(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.SADD, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/pipezadd/{count}")
	RunResult pipeZadd(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.ZADD, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/pipelpush/{count}")
	RunResult pipeLpush(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.LPUSH, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/loopincr/{count}")
	RunResult loopIncr(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.INCR, Mode.LOOP, count, params, request);
	}

	@GetMapping("/loophset/{count}")
	RunResult loopHset(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.HSET, Mode.LOOP, count, params, request);
	}

	@GetMapping("/loopsadd/{count}")
	RunResult loopSadd(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.SADD, Mode.LOOP, count, params, request);
	}

	@GetMapping("/loopzadd/{count}")
	RunResult loopZadd(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.ZADD, Mode.LOOP, count, params, request);
	}

	@GetMapping("/looplpush/{count}")
	RunResult loopLpush(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.LPUSH, Mode.LOOP, count, params, request);
	}

	@GetMapping("/listinput/{count}")
	RunResult listInput(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.RPUSH, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/pipemixed/{count}")
	RunResult pipeMixed(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.MIXED, Mode.PIPELINED, count, params, request);
	}

	@GetMapping("/loopmixed/{count}")
	RunResult loopMixed(@PathVariable long count, RunParams params, HttpServletRequest request) {
		return run(Operation.MIXED, Mode.LOOP, count, params, request);
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

	private RunResult run(Operation operation, Mode mode, long count, RunParams params, HttpServletRequest request) {
		return this.runs.run(this.requests.single(operation, mode, count, params), this.stops.of(request));
	}

	/** What {@code DELETE /keys} removed. */
	record Cleanup(String pattern, long deleted) {
	}

}
