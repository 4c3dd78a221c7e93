package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

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
 * size, when the server reported one (Redis samples it about once a second, so a short
 * pass can leave no reading: then absent, never 0)
 * @param latencyPer what one latency sample is: a batch (a request with fan-out)
 * @param latencyP50Millis median latency per batch at this size
 * @param latencyP99Millis 99th percentile per batch at this size
 * @param summary the recommendation in one sentence
 * @param byRtt the same rule at the measured round trip and at each one the projection
 * uses ({@link Projection#RTTS}), each result's throughput there taken from its
 * projection: a longer round trip favours longer batches. Only the measured entry when
 * some result has no projection (several clients)
 */
public record Recommendation(int batchSize, double opsPerSecond, double shareOfBest, int bestBatchSize,
		double bestOpsPerSecond, @Nullable Long peakOutputBufferBytes, Latency.Per latencyPer, double latencyP50Millis,
		double latencyP99Millis, String summary, List<AtRtt> byRtt) {

	/**
	 * The batch size the rule picks at one round trip.
	 *
	 * @param rttMillis the round trip
	 * @param batchSize the smallest batch size within {@link #SHARE_OF_BEST} of the best
	 * there
	 * @param opsPerSecond its throughput there: measured, or projected
	 * @param measured true for the round trip the sweep ran at (the median of its
	 * results' measured RTTs), whose figures are measured rather than projected
	 */
	public record AtRtt(double rttMillis, int batchSize, double opsPerSecond, boolean measured) {
	}

	/** How close to the best a batch size must come to be recommended. */
	public static final double SHARE_OF_BEST = 0.9;

	/** The recommendation from a sweep's results, or null when nothing ran. */
	public static @Nullable Recommendation of(List<RunResult> results) {
		if (results.isEmpty()) {
			return null;
		}
		RunResult best = best(results, (r) -> r.timing().opsPerSecond());
		RunResult chosen = chosen(results, (r) -> r.timing().opsPerSecond());
		double share = Math.round(chosen.timing().opsPerSecond() / best.timing().opsPerSecond() * 1000) / 1000.0;
		Long reported = (chosen.serverSide().server() != null) ? chosen.serverSide().server().peakOutputBufferBytes()
				: null;
		// client_recent_max_output_buffer is sampled by Redis' cron: 0 means no sample
		// caught a reply list, not that the replies took no memory.
		Long peak = (reported != null && reported > 0) ? reported : null;
		Latency latency = chosen.load().latency();
		StringBuilder sentence = new StringBuilder(String.format(Locale.ROOT,
				"Use batches of %,d: %,.0f ops/s, %.0f%% of the best (%,.0f ops/s at %,d)", chosen.ran().batchSize(),
				chosen.timing().opsPerSecond(), share * 100, best.timing().opsPerSecond(), best.ran().batchSize()));
		sentence.append(String.format(Locale.ROOT, ", %.3f ms per %s at p50 (p99 %.3f ms)", latency.p50(),
				latency.per().label(), latency.p99()));
		sentence.append((peak != null) ? String.format(Locale.ROOT, " and a peak reply buffer of %,d bytes", peak)
				: "; the reply buffer was not measured (Redis took no sample of it during the pass)");
		sentence.append((chosen == best) ? "; no smaller batch came within 10%."
				: "; longer pipelines add reply memory and latency for at most " + Math.round((1 / share - 1) * 100)
						+ "% more throughput.");
		return new Recommendation(chosen.ran().batchSize(), chosen.timing().opsPerSecond(), share,
				best.ran().batchSize(), best.timing().opsPerSecond(), peak, latency.per(), latency.p50(), latency.p99(),
				sentence.toString(), byRtt(results, chosen));
	}

	/**
	 * The rule at the measured round trip (the choice above) and at each projected one,
	 * by each result's own projection.
	 */
	static List<AtRtt> byRtt(List<RunResult> results, RunResult chosenAsMeasured) {
		List<AtRtt> answer = new ArrayList<>();
		answer.add(new AtRtt(medianRtt(results), chosenAsMeasured.ran().batchSize(),
				chosenAsMeasured.timing().opsPerSecond(), true));
		Map<RunResult, Projection> projections = new IdentityHashMap<>();
		for (RunResult result : results) {
			Projection projection = result.projection();
			if (projection == null) {
				return List.copyOf(answer);
			}
			projections.put(result, projection);
		}
		for (double rtt : Projection.RTTS) {
			ToDoubleFunction<RunResult> at = (r) -> Objects.requireNonNull(projections.get(r)).opsPerSecondAt(rtt);
			RunResult chosen = chosen(results, at);
			answer
				.add(new AtRtt(rtt, chosen.ran().batchSize(), Math.round(at.applyAsDouble(chosen) * 10) / 10.0, false));
		}
		return List.copyOf(answer);
	}

	private static RunResult best(List<RunResult> results, ToDoubleFunction<RunResult> opsPerSecond) {
		return results.stream().max(Comparator.comparingDouble(opsPerSecond)).orElseThrow();
	}

	/** The smallest batch size within {@link #SHARE_OF_BEST} of the best. */
	private static RunResult chosen(List<RunResult> results, ToDoubleFunction<RunResult> opsPerSecond) {
		double best = opsPerSecond.applyAsDouble(best(results, opsPerSecond));
		return results.stream()
			.filter((result) -> opsPerSecond.applyAsDouble(result) >= SHARE_OF_BEST * best)
			.min(Comparator.comparingInt((r) -> r.ran().batchSize()))
			.orElseThrow();
	}

	private static double medianRtt(List<RunResult> results) {
		double[] rtts = results.stream().mapToDouble((r) -> r.timing().measuredRttMillis()).sorted().toArray();
		int middle = rtts.length / 2;
		return (rtts.length % 2 == 1) ? rtts[middle] : (rtts[middle - 1] + rtts[middle]) / 2;
	}

}
