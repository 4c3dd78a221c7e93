package dev.pipelininglab.run;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The batch size a sweep recommends: the smallest that reaches {@value #SHARE_OF_BEST} of
 * the best throughput measured. Past it, longer pipelines buy little speed and cost reply
 * memory on the server and latency per batch, so the figures that come with it are those
 * two.
 *
 * @param batchSize the smallest batch size within {@code shareOfBest} of the best
 * @param opsPerSecond its throughput
 * @param shareOfBest its throughput over the best one
 * @param bestBatchSize the batch size that measured the best throughput
 * @param bestOpsPerSecond that throughput
 * @param peakOutputBufferBytes the largest reply buffer the server held at this batch
 * size, when the server reported it
 * @param latencyPer what one latency sample is: a batch (a request with fan-out)
 * @param latencyP50Millis median latency per batch at this size
 * @param latencyP99Millis 99th percentile per batch at this size
 * @param summary the recommendation in one sentence
 */
public record Recommendation(int batchSize, double opsPerSecond, double shareOfBest, int bestBatchSize,
		double bestOpsPerSecond, @Nullable Long peakOutputBufferBytes, Latency.Per latencyPer, double latencyP50Millis,
		double latencyP99Millis, String summary) {

	/** How close to the best a batch size must come to be recommended. */
	public static final double SHARE_OF_BEST = 0.9;

	/** The recommendation from a sweep's results, or null when nothing ran. */
	public static @Nullable Recommendation of(List<RunResult> results) {
		if (results.isEmpty()) {
			return null;
		}
		RunResult best = results.stream()
			.max(Comparator.comparingDouble((r) -> r.timing().opsPerSecond()))
			.orElseThrow();
		RunResult chosen = results.stream()
			.filter((result) -> result.timing().opsPerSecond() >= SHARE_OF_BEST * best.timing().opsPerSecond())
			.min(Comparator.comparingInt((r) -> r.ran().batchSize()))
			.orElse(best);
		double share = Math.round(chosen.timing().opsPerSecond() / best.timing().opsPerSecond() * 1000) / 1000.0;
		Long peak = (chosen.serverSide().server() != null) ? chosen.serverSide().server().peakOutputBufferBytes()
				: null;
		Latency latency = chosen.load().latency();
		StringBuilder sentence = new StringBuilder(String.format(Locale.ROOT,
				"Use batches of %,d: %,.0f ops/s, %.0f%% of the best (%,.0f ops/s at %,d)", chosen.ran().batchSize(),
				chosen.timing().opsPerSecond(), share * 100, best.timing().opsPerSecond(), best.ran().batchSize()));
		sentence.append(String.format(Locale.ROOT, ", %.3f ms per %s at p50 (p99 %.3f ms)", latency.p50(),
				latency.per().label(), latency.p99()));
		if (peak != null) {
			sentence.append(String.format(Locale.ROOT, " and a peak reply buffer of %,d bytes", peak));
		}
		sentence.append(chosen == best ? "; no smaller batch came within 10%."
				: "; longer pipelines add reply memory and latency for at most " + Math.round((1 / share - 1) * 100)
						+ "% more throughput.");
		return new Recommendation(chosen.ran().batchSize(), chosen.timing().opsPerSecond(), share,
				best.ran().batchSize(), best.timing().opsPerSecond(), peak, latency.per(), latency.p50(), latency.p99(),
				sentence.toString());
	}

}
