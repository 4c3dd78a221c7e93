package dev.pipelininglab.job;

import java.util.List;

import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.Topology;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.LoopCeiling;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Sweep;
import org.jspecify.annotations.Nullable;

/**
 * Measures a job's plan (one run, a comparison or a sweep) and describes what it measures
 * on, for the job's record.
 */
class PlanMeasurement {

	private final RunService runs;

	private final RunStore store;

	private final JobProperties settings;

	private final PipelineProperties pipeline;

	private final Topology topology;

	PlanMeasurement(RunService runs, RunStore store, JobProperties settings, PipelineProperties pipeline,
			Topology topology) {
		this.runs = runs;
		this.store = store;
		this.settings = settings;
		this.pipeline = pipeline;
		this.topology = topology;
	}

	/**
	 * What a finished plan leaves for the job's final record.
	 *
	 * @param skipped the variants a comparison could not run, null for other kinds
	 * @param summary the sentence the page shows under the results: a single run's is its
	 * loop ceiling alone, when there is one
	 */
	record Outcome(List<RunResult> results, @Nullable List<Comparison.Skipped> skipped, @Nullable String summary) {
	}

	/** Whether a run specification of the plan can run on this Redis at all. */
	boolean supported(RunSpec spec) {
		return this.runs.unsupported(spec) == null;
	}

	Outcome measure(Job job) {
		return switch (job.plan.kind()) {
			case SINGLE -> {
				List<RunResult> results = List.of(this.runs.run(job.plan.base(), job));
				// Single runs: the loop ceiling alone, the sentence the page shows under
				// every result.
				yield new Outcome(results, null, LoopCeiling.sentence(results));
			}
			case COMPARE -> {
				Comparison comparison = this.runs.compare(job.plan.base(), job.plan.variants(), job);
				yield new Outcome(comparison.results(), comparison.skipped(), comparison.summary());
			}
			case SWEEP -> {
				Sweep sweep = this.runs.sweep(job.plan.base(), job.plan.batchSizes(), job);
				yield new Outcome(sweep.results(), null, sweep.summary());
			}
		};
	}

	/** What this instance measures on; read at each submit, as Redis may be upgraded. */
	RunRecord.Environment environment() {
		String version;
		try {
			version = this.store.redisVersion();
		}
		catch (RuntimeException ex) {
			version = null;
		}
		Runtime.Version jvm = Runtime.version();
		return new RunRecord.Environment(version, this.topology.kind() + " " + String.join(", ", this.topology.nodes()),
				System.getProperty("java.vm.name") + " " + jvm, Runtime.getRuntime().availableProcessors(),
				this.pipeline.flushPolicy().toString(), this.pipeline.writes().label(), this.settings.maxConcurrent());
	}

}
