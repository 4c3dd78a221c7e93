package dev.pipelininglab.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.PipelineProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * What a comparison adds to the variants it was asked for, so that its first sentence is
 * steady and says which batch size to use: several passes per variant, each long enough
 * to judge, and the configured pipeline timed at a few more batch sizes
 * ({@code lab.compare.*}).
 */
@Component
record SteadyCompare(CompareProperties compare, PipelineProperties pipeline, LimitProperties limits) {

	/**
	 * The fastest rate a pass by time is given items for: a pass that runs out of them
	 * ends early, and says so in its {@code timeLimit}.
	 */
	private static final long MOST_OPS_PER_SECOND = 10_000_000;

	/**
	 * The rows a comparison runs, those skipped with the reason, and the advice's runs.
	 * @param unsupported why a spec cannot run here, or null
	 */
	ComparisonPlan plan(RunSpec asked, List<Variant> variants, boolean steady,
			Function<RunSpec, @Nullable String> unsupported) {
		RunSpec base = base(asked, steady);
		List<RunSpec> runnable = new ArrayList<>();
		List<Comparison.Skipped> skipped = new ArrayList<>();
		for (Variant variant : variants) {
			RunSpec spec = base.with(variant);
			String reason = unsupported.apply(spec);
			if (reason != null) {
				skipped.add(new Comparison.Skipped(variant.label(), reason));
			}
			else {
				runnable.add(spec);
			}
		}
		RunSpec advised = advised(runnable);
		return new ComparisonPlan(asked, base, List.copyOf(runnable), List.copyOf(skipped), advised,
				atOtherSizes(advised, asked.count(), (spec) -> unsupported.apply(spec) == null));
	}

	/**
	 * {@code steady}: the request asked for neither {@code repeat} nor {@code duration}.
	 * A pass by time is a run by {@code duration} over a sequential walk of {@code count}
	 * keys, with items enough to cycle them: only for a SET or GET with no walk, rate or
	 * fan-out of its own, and a SET on one client (clients would race on the keys a cycle
	 * writes again).
	 */
	RunSpec base(RunSpec asked, boolean steady) {
		if (!steady) {
			return asked;
		}
		Duration passTime = this.compare.passTime();
		Workload workload = asked.workload();
		boolean byTime = !passTime.isZero()
				&& (asked.operation() == Operation.GET || (asked.operation() == Operation.SET && asked.clients() == 1))
				&& workload.keyWalk() == null && workload.rate() == 0 && workload.requests() == 1
				&& workload.duration() == null && workload.first() == 0;
		if (!byTime) {
			return asked.withPasses(this.compare.passes(), asked.count(), workload);
		}
		long items = Math.max(asked.count(),
				Math.min(this.limits.maxCount(), MOST_OPS_PER_SECOND * passTime.toMillis() / 1000));
		Workload cycling = new Workload(workload.valueSize(), 1, workload.maxBatchBytes(), workload.batchSizeAsked(), 0,
				passTime, workload.ratio(), new KeyWalk(asked.count(), KeyWalk.Pattern.SEQUENTIAL, 1), 0);
		return asked.withPasses(this.compare.passes(), items, cycling);
	}

	/**
	 * The Lettuce pipeline the advice times: with {@code lab.pipeline.flush-policy} as
	 * configured, else the first Lettuce pipeline asked for; null when none was.
	 */
	@Nullable RunSpec advised(List<RunSpec> runnable) {
		List<RunSpec> pipelines = runnable.stream()
			.filter((spec) -> spec.mode() == Mode.PIPELINED && spec.senders().connector() == Connector.LETTUCE)
			.toList();
		return pipelines.stream()
			.filter((spec) -> spec.flushPolicy().equals(this.pipeline.flushPolicy()) && spec.writes() == null)
			.findFirst()
			.orElse(pipelines.isEmpty() ? null : pipelines.get(0));
	}

	/**
	 * The advised pipeline at the other batch sizes of {@code lab.compare.batch-sizes}:
	 * not rows of the table, only the advice's evidence.
	 */
	List<RunSpec> atOtherSizes(@Nullable RunSpec advised, long count, Predicate<RunSpec> supported) {
		if (advised == null) {
			return List.of();
		}
		List<RunSpec> more = new ArrayList<>();
		List<Integer> sizes = new ArrayList<>(List.of(advised.batchSize()));
		for (int size : this.compare.batchSizes().stream().sorted(Comparator.naturalOrder()).toList()) {
			if (size > count || size > this.limits.maxBatchSize()) {
				continue;
			}
			RunSpec spec = advised.withBatchSize(size);
			// A byte budget may shrink it to a size already timed.
			if (!sizes.contains(spec.batchSize()) && supported.test(spec)) {
				sizes.add(spec.batchSize());
				more.add(spec);
			}
		}
		return more;
	}

	/**
	 * Over every batch size the advised pipeline ran at; none from fewer than three, as a
	 * rule picked from two points is a guess.
	 */
	static @Nullable Recommendation advice(@Nullable RunResult row, List<RunResult> more) {
		if (row == null || more.size() < 2) {
			return null;
		}
		List<RunResult> all = new ArrayList<>(more);
		all.add(row);
		all.sort(Comparator.comparingInt((result) -> result.ran().batchSize()));
		return Recommendation.of(all);
	}

}
