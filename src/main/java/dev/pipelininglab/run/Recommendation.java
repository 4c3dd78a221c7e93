package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

import static dev.pipelininglab.run.RunService.median;

/**
 * The smallest batch size within {@value #SHARE_OF_BEST} of the best throughput: longer
 * pipelines buy little more for their reply memory and latency, the two figures it
 * carries. {@code byRtt}: the rule at other RTTs, from each result's projection
 * (docs/api.md). {@code timedAt}: every batch size it chose among, as they ran.
 * {@code opsPerSecondMin} and {@code opsPerSecondMax}: its slowest and fastest pass, as
 * every other figure of several passes carries them.
 */
public record Recommendation(int batchSize, double opsPerSecond,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double opsPerSecondMin,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double opsPerSecondMax, double shareOfBest,
		int bestBatchSize, double bestOpsPerSecond, @Nullable Long peakOutputBufferBytes, Latency.Per latencyPer,
		double latencyP50Millis, double latencyP99Millis, String summary, List<AtRtt> byRtt, List<Integer> timedAt) {

	/** {@code measured}: at the sweep's median RTT, not projected. */
	public record AtRtt(double rttMillis, int batchSize, double opsPerSecond, boolean measured) {
	}

	public static final double SHARE_OF_BEST = 0.9;

	public static @Nullable Recommendation of(List<RunResult> results) {
		if (results.isEmpty()) {
			return null;
		}
		RunResult best = best(results, (r) -> r.timing().opsPerSecond());
		RunResult chosen = chosen(results, (r) -> r.timing().opsPerSecond());
		double share = Math.round(chosen.timing().opsPerSecond() / best.timing().opsPerSecond() * 1000) / 1000.0;
		Long reported = (chosen.serverSide().server() != null) ? chosen.serverSide().server().peakOutputBufferBytes()
				: null;
		// Redis' cron samples client_recent_max_output_buffer: 0 means no sample.
		Long peak = (reported != null && reported > 0) ? reported : null;
		Latency latency = chosen.load().latency();
		StringBuilder sentence = new StringBuilder(String.format(Locale.ROOT,
				"Use batches of %,d: %,.0f ops/s%s, %.0f%% of the best (%,.0f ops/s at %,d)", chosen.ran().batchSize(),
				chosen.timing().opsPerSecond(), ComparisonSummary.range(chosen.timing(), ""), share * 100,
				best.timing().opsPerSecond(), best.ran().batchSize()));
		sentence.append(String.format(Locale.ROOT, ", %.3f ms per %s at p50 (p99 %.3f ms)", latency.p50(),
				latency.per().label(), latency.p99()));
		sentence.append((peak != null) ? String.format(Locale.ROOT, " and a peak reply buffer of %,d bytes", peak)
				: "; the reply buffer was not measured (Redis took no sample of it during the pass)");
		sentence.append((chosen == best) ? "; no smaller batch came within 10%."
				: "; longer pipelines add reply memory and latency for at most " + Math.round((1 / share - 1) * 100)
						+ "% more throughput.");
		return new Recommendation(chosen.ran().batchSize(), chosen.timing().opsPerSecond(),
				chosen.timing().opsPerSecondMin(), chosen.timing().opsPerSecondMax(), share, best.ran().batchSize(),
				best.timing().opsPerSecond(), peak, latency.per(), latency.p50(), latency.p99(), sentence.toString(),
				byRtt(results, chosen), results.stream().map((result) -> result.ran().batchSize()).sorted().toList());
	}

	static List<AtRtt> byRtt(List<RunResult> results, RunResult chosenAsMeasured) {
		List<AtRtt> answer = new ArrayList<>();
		answer.add(new AtRtt(median(results.stream().mapToDouble((r) -> r.timing().measuredRttMillis())),
				chosenAsMeasured.ran().batchSize(), chosenAsMeasured.timing().opsPerSecond(), true));
		if (results.stream().anyMatch((result) -> result.projection() == null)) {
			return List.copyOf(answer);
		}
		for (double rtt : Projection.RTTS) {
			ToDoubleFunction<RunResult> at = (r) -> Objects.requireNonNull(r.projection()).opsPerSecondAt(rtt);
			RunResult chosen = chosen(results, at);
			answer
				.add(new AtRtt(rtt, chosen.ran().batchSize(), Math.round(at.applyAsDouble(chosen) * 10) / 10.0, false));
		}
		return List.copyOf(answer);
	}

	static RunResult best(List<RunResult> results, ToDoubleFunction<RunResult> opsPerSecond) {
		return results.stream().max(Comparator.comparingDouble(opsPerSecond)).orElseThrow();
	}

	private static RunResult chosen(List<RunResult> results, ToDoubleFunction<RunResult> opsPerSecond) {
		double best = opsPerSecond.applyAsDouble(best(results, opsPerSecond));
		return results.stream()
			.filter((result) -> opsPerSecond.applyAsDouble(result) >= SHARE_OF_BEST * best)
			.min(Comparator.comparingInt((r) -> r.ran().batchSize()))
			.orElseThrow();
	}

}
