package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * A comparison planned once, when it is accepted: its rows, those skipped with the
 * reason, and the advised pipeline at other batch sizes ({@code more}, for its advice
 * only). Its record's key ranges, its progress steps and its passes all come from this
 * one plan ({@link SteadyCompare}).
 */
public record ComparisonPlan(RunSpec asked, RunSpec base, List<RunSpec> rows, List<Comparison.Skipped> skipped,
		@Nullable RunSpec advised, List<RunSpec> more) {

	/** The rows first, in the order asked, then the advice's runs. */
	public List<RunSpec> all() {
		return Stream.concat(this.rows.stream(), this.more.stream()).toList();
	}

	/** {@code measured}: a result for each of {@link #all()}, in its order. */
	Comparison answer(List<RunResult> measured, String topology, @Nullable Map<String, String> settings) {
		List<RunResult> compared = Comparison.rows(measured.subList(0, this.rows.size()));
		// List.copyOf's lists refuse to look for null.
		int advisedRow = (this.advised != null) ? this.rows.indexOf(this.advised) : -1;
		RunResult advisedResult = (advisedRow >= 0) ? compared.get(advisedRow) : null;
		Recommendation recommendation = SteadyCompare.advice(advisedResult,
				measured.subList(this.rows.size(), measured.size())
					.stream()
					.map((result) -> result.partOfMany(null))
					.toList());
		return new Comparison(this.asked.operation(), this.asked.count(), topology, compared, this.skipped,
				ComparisonSummary.of(compared, advisedResult, recommendation), recommendation, settings);
	}

}
