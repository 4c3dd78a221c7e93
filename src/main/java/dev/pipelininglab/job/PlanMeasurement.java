package dev.pipelininglab.job;

import java.util.List;

import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.LoopCeiling;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.Sweep;
import dev.pipelininglab.run.WarmUpProperties;
import org.jspecify.annotations.Nullable;

/**
 * Measures a job's plan: one run, a comparison or a sweep, and the sentence the page
 * shows under its results.
 */
class PlanMeasurement {

	private final RunService runs;

	private final WarmUpProperties warmUp;

	PlanMeasurement(RunService runs, WarmUpProperties warmUp) {
		this.runs = runs;
		this.warmUp = warmUp;
	}

	/** For the job's final record; {@code answer} is what a GET run answers. */
	record Outcome(List<RunResult> results, @Nullable List<Comparison.Skipped> skipped, @Nullable String summary,
			Object answer) {
	}

	PhasePlan phases(RunPlan plan) {
		return PhasePlan.of(plan, (spec) -> this.runs.unsupported(spec) == null, this.warmUp.roundTrips());
	}

	Outcome measure(Job job) {
		return switch (job.plan.kind()) {
			case SINGLE -> {
				RunResult result = this.runs.run(job.plan.base(), job);
				yield new Outcome(List.of(result), null, LoopCeiling.sentence(List.of(result)), result);
			}
			case COMPARE -> {
				Comparison comparison = this.runs.compare(job.plan.base(), job.plan.variants(), job);
				yield new Outcome(comparison.results(), comparison.skipped(), comparison.summary(), comparison);
			}
			case SWEEP -> {
				Sweep sweep = this.runs.sweep(job.plan.base(), job.plan.batchSizes(), job);
				yield new Outcome(sweep.results(), null, sweep.summary(), sweep);
			}
		};
	}

}
