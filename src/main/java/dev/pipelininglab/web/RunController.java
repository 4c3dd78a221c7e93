package dev.pipelininglab.web;

import java.time.Duration;

import dev.pipelininglab.redis.KeyCleaner;
import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunObserver;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Sweep;

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

	private final Duration maxRunTime;

	private final ShutdownSignal shutdown;

	RunController(RunService runs, RunRequests requests, KeyCleaner cleaner, KeySpace keys, LimitProperties limits,
			ShutdownSignal shutdown) {
		this.shutdown = shutdown;
		this.runs = runs;
		this.requests = requests;
		this.cleaner = cleaner;
		this.keys = keys;
		this.maxRunTime = limits.maxRunTime();
	}

	/**
	 * Stops a GET run between commands once it has run for
	 * {@code lab.limits.max-run-time} (a caller that gave up long ago must not keep an
	 * admission slot for hours), or as soon as the app starts shutting down.
	 */
	private RunObserver deadline() {
		RunObserver shutdown = new RunObserver() {
			@Override
			public boolean cancelled() {
				return RunController.this.shutdown.stopping();
			}
		};
		return RunObserver.until(System.nanoTime() + this.maxRunTime.toNanos(), shutdown);
	}

	@GetMapping("/pipeset/{count}")
	RunResult pipeSet(@PathVariable long count, RunParams params) {
		return run(Operation.SET, Mode.PIPELINED, count, params);
	}

	@GetMapping("/pipeget/{count}")
	RunResult pipeGet(@PathVariable long count, RunParams params) {
		return run(Operation.GET, Mode.PIPELINED, count, params);
	}

	@GetMapping("/piperpop/{count}")
	RunResult pipeRpop(@PathVariable long count, RunParams params) {
		return run(Operation.RPOP, Mode.PIPELINED, count, params);
	}

	@GetMapping("/pipeping/{count}")
	RunResult pipePing(@PathVariable long count, RunParams params) {
		return run(Operation.PING, Mode.PIPELINED, count, params);
	}

	@GetMapping("/loopset/{count}")
	RunResult loopSet(@PathVariable long count, RunParams params) {
		return run(Operation.SET, Mode.LOOP, count, params);
	}

	@GetMapping("/loopget/{count}")
	RunResult loopGet(@PathVariable long count, RunParams params) {
		return run(Operation.GET, Mode.LOOP, count, params);
	}

	@GetMapping("/looprpop/{count}")
	RunResult loopRpop(@PathVariable long count, RunParams params) {
		return run(Operation.RPOP, Mode.LOOP, count, params);
	}

	@GetMapping("/loopping/{count}")
	RunResult loopPing(@PathVariable long count, RunParams params) {
		return run(Operation.PING, Mode.LOOP, count, params);
	}

	@GetMapping("/pipeincr/{count}")
	RunResult pipeIncr(@PathVariable long count, RunParams params) {
		return run(Operation.INCR, Mode.PIPELINED, count, params);
	}

	@GetMapping("/pipehset/{count}")
	RunResult pipeHset(@PathVariable long count, RunParams params) {
		return run(Operation.HSET, Mode.PIPELINED, count, params);
	}

	@GetMapping("/pipesadd/{count}")
	RunResult pipeSadd(@PathVariable long count, RunParams params) {
		return run(Operation.SADD, Mode.PIPELINED, count, params);
	}

	@GetMapping("/pipezadd/{count}")
	RunResult pipeZadd(@PathVariable long count, RunParams params) {
		return run(Operation.ZADD, Mode.PIPELINED, count, params);
	}

	@GetMapping("/pipelpush/{count}")
	RunResult pipeLpush(@PathVariable long count, RunParams params) {
		return run(Operation.LPUSH, Mode.PIPELINED, count, params);
	}

	@GetMapping("/loopincr/{count}")
	RunResult loopIncr(@PathVariable long count, RunParams params) {
		return run(Operation.INCR, Mode.LOOP, count, params);
	}

	@GetMapping("/loophset/{count}")
	RunResult loopHset(@PathVariable long count, RunParams params) {
		return run(Operation.HSET, Mode.LOOP, count, params);
	}

	@GetMapping("/loopsadd/{count}")
	RunResult loopSadd(@PathVariable long count, RunParams params) {
		return run(Operation.SADD, Mode.LOOP, count, params);
	}

	@GetMapping("/loopzadd/{count}")
	RunResult loopZadd(@PathVariable long count, RunParams params) {
		return run(Operation.ZADD, Mode.LOOP, count, params);
	}

	@GetMapping("/looplpush/{count}")
	RunResult loopLpush(@PathVariable long count, RunParams params) {
		return run(Operation.LPUSH, Mode.LOOP, count, params);
	}

	@GetMapping("/listinput/{count}")
	RunResult listInput(@PathVariable long count, RunParams params) {
		return run(Operation.RPUSH, Mode.PIPELINED, count, params);
	}

	@GetMapping("/compare/{op}/{count}")
	Comparison compare(@PathVariable String op, @PathVariable long count, RunParams params) {
		RunSpec base = this.requests.multiple(RunRequests.operation(op), count, params);
		return this.runs.compare(base, this.requests.withinRunBytes(base, this.requests.variants(params)), deadline());
	}

	@GetMapping("/sweep/{op}/{count}")
	Sweep sweep(@PathVariable String op, @PathVariable long count, RunParams params) {
		RunSpec base = this.requests.multiple(RunRequests.operation(op), count, params);
		return this.runs.sweep(base, this.requests.withinRunBytes(base, this.requests.batchSizes(count, params)),
				deadline());
	}

	@DeleteMapping("/keys")
	Cleanup deleteKeys() {
		return new Cleanup(this.keys.scanPattern(), this.cleaner.deleteAll());
	}

	private RunResult run(Operation operation, Mode mode, long count, RunParams params) {
		return this.runs.run(this.requests.single(operation, mode, count, params), deadline());
	}

	/** What {@code DELETE /keys} removed. */
	record Cleanup(String pattern, long deleted) {
	}

}
