package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;

import dev.pipelininglab.redis.ClientSettings;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;

/**
 * The one path every measurement takes, in the order of its phases: pick the route, warm
 * it up ({@link WarmUp}), send the timed passes ({@link TimedPasses}), verify and report
 * ({@link ResultAssembly}). Modes differ only in their {@link BatchRunner}.
 */
@Service
public class RunService {

	private final Runners runners;

	private final RunKeys data;

	private final KeySpace keys;

	private final Topology topology;

	private final ClientSettings settings;

	private final Safeguards safeguards;

	private final WarmUp warmUp;

	private final Measurements measurements;

	private final ServerCounters counters;

	private final SteadyCompare steady;

	RunService(Runners runners, RunKeys data, KeySpace keys, Topology topology, ClientSettings settings,
			Safeguards safeguards, WarmUp warmUp, Measurements measurements, ServerCounters counters,
			SteadyCompare steady) {
		this.runners = runners;
		this.data = data;
		this.keys = keys;
		this.topology = topology;
		this.settings = settings;
		this.safeguards = safeguards;
		this.warmUp = warmUp;
		this.measurements = measurements;
		this.counters = counters;
		this.steady = steady;
	}

	/** A sweep's batch size of 1 made its untimed set-up take longer than the runs. */
	static final int SETUP_BATCH = 10_000;

	/** Null when the spec can run here, else why not. */
	public @Nullable String unsupported(RunSpec spec) {
		Runners.Refusal refusal = this.runners.refusal(spec);
		return (refusal != null) ? refusal.reason() : null;
	}

	private void requireSupported(RunSpec spec) {
		Runners.Refusal refusal = this.runners.refusal(spec);
		if (refusal != null) {
			throw refusal.of(spec);
		}
	}

	/** No preparation: RPOP pops what the list holds. */
	public RunResult run(RunSpec spec, RunObserver observer) {
		return run(spec, observer, true);
	}

	/**
	 * A fleet member's share: neither read back nor given its expiry unless it stops, as
	 * the leader does both for every share after the fleet's window
	 * ({@link FleetShares}).
	 */
	public RunResult runShare(RunSpec share, RunObserver observer) {
		return run(share, observer, false);
	}

	private RunResult run(RunSpec spec, RunObserver observer, boolean readBack) {
		requireSupported(spec);
		List<RunSpec> specs = List.of(spec);
		ServerCounters.Snapshot before = this.safeguards.preflight(spec, specs, false, observer);
		observer.started(spec.repeat() * spec.batchesPerPass());
		Written written = new Written();
		return this.safeguards.leavingExpiry(spec, written,
				() -> written.keptFor(inRounds(specs, false, readBack, observer, before, written).get(0), readBack));
	}

	/** A fleet's: what all its members store together must fit. */
	public void preflight(RunSpec whole, RunObserver observer) {
		requireSupported(whole);
		this.safeguards.preflight(whole, List.of(whole), false, observer);
	}

	/**
	 * Every key a run of {@code specs} may write, its warm-up's too (several instances
	 * warm up on the same keys), for its record before its first key; {@code prepared}: a
	 * comparison or sweep, which prepares the keys it reads.
	 */
	public List<KeySpace.Range> reach(List<RunSpec> specs, boolean prepared) {
		return specs.stream().flatMap((spec) -> {
			BatchRunner runner = this.runners.of(spec);
			return Stream.concat(Written.reach(spec, runner.keySpace(this.keys), prepared).stream(),
					Written.reach(this.warmUp.mostOf(runner, spec), runner.keySpace(this.keys.warmup()), false)
						.stream());
		}).distinct().toList();
	}

	/** For a run whose instance died: see {@link Safeguards#expireAbandoned}. */
	public void expireAbandoned(List<KeySpace.Range> ranges, boolean keepExpiries) {
		this.safeguards.expireAbandoned(ranges, keepExpiries);
	}

	/**
	 * Every variant on the same keys and values, each from the same starting state; those
	 * the topology cannot run are listed as skipped, with the reason. {@code steady}: the
	 * request set neither {@code repeat} nor {@code duration}, so the lab picks passes
	 * that make a steady answer ({@link SteadyCompare}); the advised pipeline's other
	 * batch sizes run in the same preflight, not as rows.
	 */
	public ComparisonPlan plan(RunSpec asked, List<Variant> variants, boolean steady) {
		return this.steady.plan(asked, variants, steady, this::unsupported);
	}

	public Comparison compare(ComparisonPlan plan, RunObserver observer) {
		return plan.answer(measureAll(plan.base(), plan.all(), observer), this.topology.kind().toString(),
				this.settings.inEffect());
	}

	/** The Redis docs' throughput-against-length figure. */
	public Sweep sweep(RunSpec base, List<Integer> batchSizes, RunObserver observer) {
		// Each batch size is checked, not the base's, which runs no pass of its own.
		RunSpec pipelined = base.with(new Variant(Mode.PIPELINED, null, base.senders().connector()));
		List<RunSpec> runs = batchSizes.stream().map(pipelined::withBatchSize).toList();
		runs.forEach(this::requireSupported);
		List<RunResult> results = measureAll(base, runs, observer).stream()
			.map((result) -> result.partOfMany(null))
			.toList();
		return new Sweep(base.operation(), base.count(), this.topology.kind().toString(), results,
				Sweep.summary(results), this.settings.inEffect());
	}

	private List<RunResult> measureAll(RunSpec base, List<RunSpec> specs, RunObserver observer) {
		// Before the first key is written: what the servers evict then is the run's
		// doing.
		ServerCounters.Snapshot before = this.safeguards.preflight(base, specs, true, observer);
		observer.started(specs.stream().mapToLong((spec) -> spec.repeat() * spec.batchesPerPass()).sum());
		Written written = new Written();
		return this.safeguards.leavingExpiry(base, written,
				() -> LoopCeiling.oneRoundTrip(prepareAndMeasure(base, specs, observer, before, written)));
	}

	private List<RunResult> prepareAndMeasure(RunSpec base, List<RunSpec> specs, RunObserver observer,
			ServerCounters.@Nullable Snapshot before, Written written) {
		if (base.operation().needsPreparedData()) {
			try {
				// The hash-tag variant reads keys of its own.
				Map<String, KeySpace> layouts = new LinkedHashMap<>();
				specs.forEach((spec) -> {
					KeySpace keys = this.runners.of(spec).keySpace(this.keys);
					layouts.putIfAbsent(keys.keyPattern(), keys);
				});
				for (KeySpace keys : layouts.values()) {
					observer.phase(RunObserver.Phase.PREPARING, "", base.batchSize(), base.count());
					// A walk reads only its own keys: a pass by time has more items than
					// keys.
					this.data.writeKeys(keys, base.workload().distinctKeys(base.count()), setupBatch(base),
							base.valueSize(), observer, written);
				}
			}
			catch (DataAccessException ex) {
				throw new RunFailedException(base, 0, new Tally(0), null,
						Measurements.keyOf(base.operation(), this.keys), ex);
			}
		}
		return inRounds(specs, true, true, observer, before, written);
	}

	/**
	 * Round by round: every variant's first pass, then every variant's second, so a
	 * machine that drifts (a neighbour, the JIT, a CPU's clock) weighs on all alike. Each
	 * variant reads back its keys right after its last pass, before the next variant's
	 * pass clears them. {@code before}: null to count from the first timed pass.
	 */
	private List<RunResult> inRounds(List<RunSpec> specs, boolean prepare, boolean readBack, RunObserver observer,
			ServerCounters.@Nullable Snapshot before, Written written) {
		List<Measurements.Measuring> measuring = new ArrayList<>();
		RunResult[] results = new RunResult[specs.size()];
		try {
			int rounds = specs.stream().mapToInt(RunSpec::repeat).max().orElse(0);
			for (int round = 0; round < rounds; round++) {
				for (int i = 0; i < specs.size(); i++) {
					if (round == 0) {
						// Evictions count from the variant's first pass on.
						ServerCounters.Snapshot since = (i == 0 || before == null) ? before : this.counters.snapshot();
						measuring.add(this.measurements.start(specs.get(i), prepare, observer, since, written, specs));
					}
					Measurements.Measuring variant = measuring.get(i);
					if (!variant.done()) {
						variant.pass();
						if (variant.done()) {
							results[i] = variant.result(readBack, observer);
						}
					}
				}
			}
		}
		finally {
			measuring.forEach(Measurements.Measuring::close);
		}
		return List.of(results);
	}

	/** Never more values than the run's byte budget lets one batch hold. */
	static int setupBatch(RunSpec spec) {
		return (spec.valueSize() > 0) ? Math.min(SETUP_BATCH, spec.workload().batchSizeLimit()) : SETUP_BATCH;
	}

	static double median(DoubleStream values) {
		double[] sorted = values.sorted().toArray();
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	public static double round(double value, int decimals) {
		double scale = Math.pow(10, decimals);
		return Math.round(value * scale) / scale;
	}

}
