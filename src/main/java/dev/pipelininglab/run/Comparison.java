package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * The same work by every requested variant, each from the same starting state.
 *
 * @param recommendation the batch size to use, from the advised pipeline timed at every
 * batch size of {@code lab.compare.batch-sizes}; absent when fewer than three ran
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Comparison(Operation operation, long count, String topology, List<RunResult> results,
		List<Skipped> skipped, String summary, @Nullable Recommendation recommendation,
		@Nullable Map<String, String> settings) {

	public record Skipped(String variant, String reason) {
	}

	/** As the rows of one comparison: each with its speedup over its loop. */
	static List<RunResult> rows(List<RunResult> results) {
		return results.stream().map((result) -> {
			RunResult loop = reference(results, result);
			// By rate, not time: a pass by time lasts as long whatever it sends.
			Double speedup = ratio(result.timing().opsPerSecond(), loop.timing().opsPerSecond());
			// The loop against itself is 1× by definition: no range.
			if (loop == result
					|| (loop.timing().opsPerSecondMin() == null && result.timing().opsPerSecondMin() == null)) {
				return result.partOfMany(speedup);
			}
			// The honest bounds: this row's slowest pass against the loop's fastest, and
			// the other way round.
			return result.partOfMany(speedup, ratio(result.timing().slowest(), loop.timing().fastest()),
					ratio(result.timing().fastest(), loop.timing().slowest()));
		}).toList();
	}

	private static @Nullable Double ratio(double ops, double loopOps) {
		return (loopOps > 0) ? RunService.round(ops / loopOps, 2) : null;
	}

	/** Jedis rows are measured against the Jedis loop. */
	private static RunResult reference(List<RunResult> results, RunResult result) {
		return results.stream()
			.filter((other) -> other.ran().mode() == Mode.LOOP
					&& other.connection().connector().name().equals(result.connection().connector().name()))
			.findFirst()
			.or(() -> results.stream().filter((other) -> other.ran().mode() == Mode.LOOP).findFirst())
			.orElse(results.get(0));
	}

}
