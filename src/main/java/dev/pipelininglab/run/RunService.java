package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.LabProperties;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Topology;

import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;

/**
 * The one path every measurement takes: warm the connection, send the batches while the clock runs, stop the
 * clock, verify, report. Modes differ only in their {@link BatchRunner}.
 */
@Service
public class RunService {

	private final Map<Mode, BatchRunner> runners = new EnumMap<>(Mode.class);

	private final DemoData data;

	private final KeySpace keys;

	private final String topology;

	private final String flushPolicy;

	RunService(List<BatchRunner> runners, DemoData data, KeySpace keys, Topology topology, LabProperties properties) {
		runners.forEach((runner) -> this.runners.put(runner.mode(), runner));
		this.data = data;
		this.keys = keys;
		this.topology = topology.kind().toString();
		this.flushPolicy = properties.pipeline().flushPolicy().toString();
	}

	public boolean supports(Mode mode, Operation operation) {
		BatchRunner runner = this.runners.get(mode);
		return runner != null && runner.supports(operation);
	}

	public RunResult run(RunSpec spec) {
		BatchRunner runner = runnerFor(spec);
		Tally tally = new Tally(spec.sample());
		long batchesDone = 0;
		long elapsedNanos;
		try {
			runner.warmUp();
			long start = System.nanoTime();
			for (long from = 0; from < spec.count(); from += spec.batchSize()) {
				runner.run(spec, from, Math.min(spec.count(), from + spec.batchSize()), tally);
				batchesDone++;
			}
			elapsedNanos = System.nanoTime() - start;
		}
		catch (DataAccessException ex) {
			throw new RunFailedException(spec, batchesDone, tally.replies(), keyOf(spec.operation()), ex);
		}
		return result(spec, runner, tally, elapsedNanos);
	}

	/**
	 * Runs every mode that supports the operation on the same keys and values, each from the same starting
	 * state (SET: keys absent; GET: keys present; RPOP: list holding {@code count} elements), loop first.
	 */
	public Comparison compare(RunSpec spec) {
		List<RunResult> results = new ArrayList<>();
		try {
			if (spec.operation() == Operation.GET) {
				this.data.writeKeys(spec.count(), spec.batchSize());
			}
			for (Mode mode : Mode.values()) {
				if (!supports(mode, spec.operation()) || (mode == Mode.MULTI_KEY && spec.ttl() != null)) {
					continue;
				}
				switch (spec.operation()) {
					case SET -> this.data.deleteKeys(spec.count(), spec.batchSize());
					case RPOP -> this.data.refillList(spec.count(), spec.batchSize());
					default -> {
					}
				}
				results.add(run(spec.withMode(mode)));
			}
		}
		catch (DataAccessException ex) {
			throw new RunFailedException(spec, 0, 0, keyOf(spec.operation()), ex);
		}
		double loopMillis = results.get(0).elapsedMillis();
		return new Comparison(spec.operation(), spec.count(), this.topology,
				results.stream().map((result) -> result.withSpeedup(round(loopMillis / result.elapsedMillis(), 2))).toList());
	}

	private BatchRunner runnerFor(RunSpec spec) {
		if (!supports(spec.mode(), spec.operation())) {
			throw new IllegalArgumentException(spec.operation().label() + " has no " + spec.mode().label() + " mode");
		}
		return this.runners.get(spec.mode());
	}

	private RunResult result(RunSpec spec, BatchRunner runner, Tally tally, long elapsedNanos) {
		long count = spec.count();
		int batchSize = (int) Math.min(runner.perRoundTrip(spec.batchSize()), count);
		long batches = (count + batchSize - 1) / batchSize;
		double elapsedMillis = round(elapsedNanos / 1e6, 3);
		double opsPerSecond = round(count / (elapsedNanos / 1e9), 1);
		Long written = null;
		Long verified = null;
		Long hits = null;
		Long misses = null;
		Long popped = null;
		Long empty = null;
		List<String> sample = tally.sample();
		switch (spec.operation()) {
			case SET -> {
				written = tally.values();
				Tally readBack = new Tally(spec.sample());
				try {
					verified = this.data.verifyKeys(count, spec.batchSize(), readBack);
				}
				catch (DataAccessException ex) {
					throw new RunFailedException(spec, spec.batches(), written, keyOf(spec.operation()), ex);
				}
				sample = readBack.sample();
			}
			case RPUSH -> written = tally.values();
			case GET -> {
				hits = tally.values();
				misses = tally.nils();
			}
			case RPOP -> {
				popped = tally.values();
				empty = tally.nils();
			}
		}
		return new RunResult(spec.operation(), spec.mode(), count, batchSize, batches, this.flushPolicy, this.topology,
				elapsedMillis, opsPerSecond, written, verified, hits, misses, popped, empty, sample, null);
	}

	private String keyOf(Operation operation) {
		return switch (operation) {
			case SET, GET -> this.keys.keyPattern();
			case RPOP, RPUSH -> this.keys.listKey();
		};
	}

	private static double round(double value, int decimals) {
		double scale = Math.pow(10, decimals);
		return Math.round(value * scale) / scale;
	}

}
