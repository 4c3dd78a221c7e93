package dev.pipelininglab.job;

import java.util.List;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.ComparisonPlan;
import dev.pipelininglab.run.KeyWalk;
import dev.pipelininglab.run.LoopCeiling;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunObserver;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Sweep;
import dev.pipelininglab.run.Variant;
import org.jspecify.annotations.Nullable;

/**
 * A checked request for a run: the same run specification the GET endpoints build, plus
 * the variants of a comparison or the batch sizes of a sweep. Bounds are checked before
 * one of these exists.
 *
 * @param instances the app instances that run it together ({@link FleetRuns}), this one
 * included
 * @param steady a comparison whose request set neither {@code repeat} nor
 * {@code duration}: the lab picks its passes ({@code lab.compare.*})
 */
public record RunPlan(RunKind kind, RunSpec base, List<Variant> variants, List<Integer> batchSizes, int instances,
		boolean steady) {

	public RunPlan {
		variants = List.copyOf(variants);
		batchSizes = List.copyOf(batchSizes);
		if ((kind == RunKind.COMPARE) == variants.isEmpty() || (kind == RunKind.SWEEP) == batchSizes.isEmpty()) {
			throw new IllegalArgumentException(
					"variants belong to comparisons and batch sizes to sweeps, and each needs at least one");
		}
		if (instances < 1 || (instances > 1 && kind != RunKind.SINGLE)) {
			throw new IllegalArgumentException("a fleet of instances runs single runs only");
		}
	}

	public static RunPlan single(RunSpec spec) {
		return new RunPlan(RunKind.SINGLE, spec, List.of(), List.of(), 1, false);
	}

	public static RunPlan compare(RunSpec base, List<Variant> variants, boolean steady) {
		return new RunPlan(RunKind.COMPARE, base, variants, List.of(), 1, steady);
	}

	public static RunPlan sweep(RunSpec base, List<Integer> batchSizes) {
		return new RunPlan(RunKind.SWEEP, base, List.of(), batchSizes, 1, false);
	}

	public RunPlan withInstances(int number) {
		return new RunPlan(this.kind, this.base, this.variants, this.batchSizes, number, this.steady);
	}

	/**
	 * One run, a comparison or a sweep, and the sentence the page shows under its
	 * results; {@code compared}: a comparison's plan, made once when it was accepted.
	 */
	Outcome measure(RunService runs, RunObserver observer, @Nullable ComparisonPlan compared) {
		return switch (this.kind) {
			case SINGLE -> {
				RunResult result = runs.run(this.base, observer);
				yield new Outcome(List.of(result), null, LoopCeiling.sentence(List.of(result)), result);
			}
			case COMPARE -> {
				if (compared == null) {
					throw new IllegalStateException("A comparison is planned when it is accepted");
				}
				Comparison comparison = runs.compare(compared, observer);
				yield new Outcome(comparison.results(), comparison.skipped(), comparison.summary(), comparison);
			}
			case SWEEP -> {
				Sweep sweep = runs.sweep(this.base, this.batchSizes, observer);
				yield new Outcome(sweep.results(), null, sweep.summary(), sweep);
			}
		};
	}

	/**
	 * A comparison's plan, else null: made once, for its record, its steps and its
	 * passes.
	 */
	@Nullable ComparisonPlan compared(RunService runs) {
		return (this.kind == RunKind.COMPARE) ? runs.plan(this.base, this.variants, this.steady) : null;
	}

	/**
	 * Every key it may write, for its record before its first key: a fleet's leader plans
	 * the whole fleet's.
	 */
	List<KeySpace.Range> reach(RunService runs, @Nullable ComparisonPlan compared) {
		return runs.reach((compared != null) ? compared.all() : List.of(this.base), this.kind != RunKind.SINGLE);
	}

	/** For the job's final record; {@code answer} is what a GET run answers. */
	record Outcome(List<RunResult> results, @Nullable List<Comparison.Skipped> skipped, @Nullable String summary,
			Object answer) {
	}

	/** Defaults filled in: posting it again repeats the run. */
	public RunRecord.Request describe() {
		RunSpec spec = this.base;
		KeyWalk walk = spec.workload().keyWalk();
		return new RunRecord.Request(this.kind, spec.operation().label(),
				(this.kind == RunKind.SINGLE) ? spec.mode().label() : null, spec.count(), spec.batchSize(),
				spec.sample(), (spec.ttl() != null) ? spec.ttl().toSeconds() : null, flushPolicy(spec),
				(spec.addedRtt() != null) ? spec.addedRtt().toNanos() / 1e6 : null,
				(this.kind == RunKind.SINGLE || this.steady) ? null : spec.repeat(),
				(this.kind == RunKind.COMPARE) ? this.variants.stream().map(Variant::label).toList() : null,
				(this.kind == RunKind.SWEEP) ? this.batchSizes : null,
				(spec.workload().valueSize() > 0) ? spec.workload().valueSize() : null,
				(spec.workload().requests() > 1) ? spec.workload().requests() : null, spec.senders().clients(),
				(this.kind == RunKind.COMPARE) ? null : spec.senders().connector().label(), connection(spec),
				(spec.workload().rate() > 0) ? spec.workload().rate() : null,
				(spec.workload().duration() != null) ? (int) spec.workload().duration().toSeconds() : null,
				(walk != null) ? walk.size() : null, (walk != null) ? walk.pattern().label() : null,
				(walk != null) ? walk.seed() : null,
				(spec.operation() == Operation.MIXED) ? spec.workload().ratio().label() : null,
				(this.instances > 1) ? this.instances : null);
	}

	/** Jedis has none: a Jedis run's request posted again with one would be refused. */
	private @Nullable String flushPolicy(RunSpec spec) {
		return ((this.kind == RunKind.SINGLE && spec.mode() != Mode.PIPELINED)
				|| spec.senders().connector() == Connector.JEDIS) ? null : spec.flushPolicy().toString();
	}

	/** Only where it applies, so posting the request again is accepted. */
	private @Nullable String connection(RunSpec spec) {
		boolean applies = switch (this.kind) {
			case SINGLE -> spec.mode().choosesConnection();
			case COMPARE -> true;
			case SWEEP -> false;
		};
		return applies ? spec.senders().sharing().label() : null;
	}

}
