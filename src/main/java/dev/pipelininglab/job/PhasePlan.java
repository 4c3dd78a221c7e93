package dev.pipelininglab.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.RunObserver.Phase;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Variant;
import org.jspecify.annotations.Nullable;

/**
 * The phases a job will go through, in the order the measuring path reports them, each
 * with what it is expected to cost: a round trip costs the link's RTT, a command a little
 * CPU on both ends. Only the ratios matter (the job's own pace scales them), so a loop of
 * a million commands weighs what it takes, not what a pipeline of the same count takes.
 */
final class PhasePlan {

	/** Loopback round trip, before one is measured; an added RTT comes on top. */
	private static final double RTT_NANOS = 100_000;

	private static final double COMMAND_NANOS = 1_500;

	/** As the measuring path's set-up and read-back. */
	private static final int SETUP_BATCH = 10_000;

	final List<Step> steps;

	/** A timed pass's time limit, when the run's passes have one. */
	final @Nullable Duration passTime;

	private final double total;

	private PhasePlan(List<Step> steps, @Nullable Duration passTime) {
		this.steps = List.copyOf(steps);
		this.passTime = passTime;
		this.total = steps.stream().mapToDouble(Step::cost).sum();
	}

	/**
	 * {@code compared}: what a comparison runs ({@code ComparisonPlan.all}), its steady
	 * passes and the advice's batch sizes included, those the topology cannot run already
	 * left out; a single run or a sweep that cannot run here fails before its first step.
	 */
	static PhasePlan of(RunPlan plan, int warmUpRoundTrips, List<RunSpec> compared) {
		RunSpec base = plan.base();
		List<RunSpec> specs = switch (plan.kind()) {
			case SINGLE -> List.of(base);
			case COMPARE -> compared;
			case SWEEP -> plan.batchSizes().stream().map(base.with(Variant.of(Mode.PIPELINED))::withBatchSize).toList();
		};
		double rtt = RTT_NANOS + ((base.addedRtt() != null) ? base.addedRtt().toNanos() : 0);
		boolean prepared = plan.kind() != RunKind.SINGLE;
		List<Step> steps = new ArrayList<>();
		if (prepared && base.operation().needsPreparedData()) {
			steps.add(setup(Phase.PREPARING, "", base.batchSize(), base.count(), rtt));
		}
		for (RunSpec spec : specs) {
			String variant = label(spec);
			int perTrip = (spec.mode() == Mode.LOOP) ? 1 : spec.batchSize();
			long warmup = Math.min(spec.count(), (long) perTrip * warmUpRoundTrips);
			long trips = (spec.count() + perTrip - 1) / perTrip;
			double cost = cost(spec.count(), trips, rtt);
			// A time limit caps each pass, and the read-back at what the pass sent.
			double share = (spec.workload().duration() != null)
					? Math.min(1, spec.workload().duration().toNanos() / cost) : 1;
			steps.add(new Step(Phase.WARM_UP, variant, spec.batchSize(), warmup, cost(warmup, warmup / perTrip, rtt)));
			for (int repeat = 0; repeat < spec.repeat(); repeat++) {
				if (prepared && spec.operation().preparesEachPass()) {
					steps.add(setup(Phase.PREPARING, variant, spec.batchSize(), spec.count(), rtt));
				}
				steps.add(new Step(Phase.TIMING, variant, spec.batchSize(), spec.count(), cost * share));
			}
			if (spec.operation().writesKeys()) {
				steps.add(
						setup(Phase.VERIFYING, variant, spec.batchSize(), (long) Math.ceil(spec.count() * share), rtt));
			}
		}
		return new PhasePlan(steps,
				specs.stream()
					.map((spec) -> spec.workload().duration())
					.filter(Objects::nonNull)
					.findFirst()
					.orElse(null));
	}

	/** As results name variants. */
	static String label(RunSpec spec) {
		return Variant.of(spec, spec.flushPolicy()).label();
	}

	private static Step setup(Phase phase, String variant, int batchSize, long commands, double rtt) {
		return new Step(phase, variant, batchSize, commands,
				cost(commands, (commands + SETUP_BATCH - 1) / SETUP_BATCH, rtt));
	}

	private static double cost(long commands, long roundTrips, double rtt) {
		return roundTrips * rtt + commands * COMMAND_NANOS;
	}

	/** The first step after {@code from} that matches, else {@code from}. */
	int next(int from, Phase phase, String variant, int batchSize) {
		for (int i = from + 1; i < this.steps.size(); i++) {
			Step step = this.steps.get(i);
			if (step.phase() == phase && step.batchSize() == batchSize
					&& (step.variant().equals(variant) || variant.isEmpty())) {
				return i;
			}
		}
		return from;
	}

	/** The share of the cost done, 0 to 1; {@code step} is -1 before the first. */
	double done(int step, double fraction) {
		if (this.total == 0 || step < 0) {
			return 0;
		}
		double done = this.steps.stream().limit(step).mapToDouble(Step::cost).sum()
				+ this.steps.get(step).cost() * Math.min(1, Math.max(0, fraction));
		return Math.min(1, done / this.total);
	}

	record Step(Phase phase, String variant, int batchSize, long commands, double cost) {

		String describe(boolean sweep) {
			String batch = sweep ? " · batch " + String.format("%,d", this.batchSize) : "";
			return this.phase.label() + (this.variant.isEmpty() ? "" : " " + this.variant + batch);
		}

	}

}
