package dev.pipelininglab.job;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.zip.DataFormatException;

import dev.pipelininglab.redis.ServerStats;
import dev.pipelininglab.run.Latency;
import dev.pipelininglab.run.RunResult;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static dev.pipelininglab.run.RunService.round;

/**
 * A fleet run's members merged into one result, as docs/api.md describes: latency from
 * their histograms added, never their percentiles averaged.
 *
 * @param stopped members with no result, whose shares get their expiry from the leader
 */
record FleetResult(RunResult result, Fleet fleet, String summary, List<Fleet.Member> stopped) {

	private static final Logger log = LoggerFactory.getLogger(FleetResult.class);

	static FleetResult of(int asked, List<Fleet.Member> planned, Map<String, FleetRuns.Signal> reports,
			@Nullable ServerStats server) {
		List<RunResult> ran = new ArrayList<>();
		List<Fleet.Member> members = new ArrayList<>();
		List<Fleet.Member> stopped = new ArrayList<>();
		Histogram histogram = new Histogram(3);
		long first = reports.values()
			.stream()
			.map(FleetRuns.Signal::at)
			.filter(Objects::nonNull)
			.min(Long::compare)
			.orElse(0L);
		double windowMicros = 0;
		long skewMicros = 0;
		for (Fleet.Member member : planned) {
			FleetRuns.Signal report = reports.get(member.instance());
			RunResult result = (report != null) ? report.result() : null;
			Histogram own = (report != null && result != null) ? histogram(report, result) : null;
			if (report == null || result == null || report.at() == null || own == null) {
				stopped.add(member);
				members.add(new Fleet.Member(member.instance(), member.share(), null, null, null, null, null, null,
						(report == null) ? "no result by its deadline"
								: Objects.requireNonNullElse(report.problem(), "no result")));
				continue;
			}
			ran.add(result);
			histogram.add(own);
			long start = report.at() - first;
			skewMicros = Math.max(skewMicros, start);
			windowMicros = Math.max(windowMicros, start + result.timing().elapsedMillis() * 1000);
			members.add(new Fleet.Member(member.instance(), member.share(), result.counts().written(),
					result.counts().verified(), result.load().latency(), result.timing().opsPerSecond(),
					round(start / 1000.0, 3), result.limitedBy(), null));
		}
		if (ran.isEmpty()) {
			throw new IllegalStateException("No member of the fleet gave a result");
		}
		RunResult base = ran.get(0);
		long items = ran.stream().mapToLong(RunResult::commandsRan).sum();
		double opsPerSecond = round(items / (windowMicros / 1e6), 1);
		boolean partial = ran.size() < asked;
		List<String> stoppedNames = stopped.stream().map(Fleet.Member::instance).toList();
		String summary = partial
				? String.format(Locale.ROOT,
						"Partial: %d of %d instances ran their share%s%s; these figures are theirs alone, not the whole"
								+ " run's.",
						ran.size(), asked,
						(planned.size() < asked) ? ", " + planned.size() + " joined within lab.fleet.join-timeout" : "",
						stopped.isEmpty() ? "" : "; stopped: " + String.join(", ", stoppedNames))
				: String.format(Locale.ROOT,
						"%d instances ran %,d commands together: %,.0f ops/s over their common window, started"
								+ " within %.3f ms of each other by Redis' clock; latency from their histograms added.",
						ran.size(), items, opsPerSecond, skewMicros / 1000.0);
		RunResult.Ran what = new RunResult.Ran(base.ran().operation(), base.ran().mode(), base.ran().variant(),
				base.ran().flushPolicy(), base.ran().writes(), items, base.ran().batchSize(),
				ran.stream().mapToLong((result) -> result.ran().batches()).sum(), base.ran().topology());
		RunResult.Timing timing = new RunResult.Timing(round(windowMicros / 1000, 3), opsPerSecond, 1, null,
				base.timing().addedRttMillis(), base.timing().measuredRttMillis(),
				base.timing().measuredRttMillisByNode());
		RunResult.Counts counts = new RunResult.Counts(sum(ran, (result) -> result.counts().written()),
				sum(ran, (result) -> result.counts().verified()), sum(ran, (result) -> result.counts().hits()),
				sum(ran, (result) -> result.counts().misses()), sum(ran, (result) -> result.counts().popped()),
				sum(ran, (result) -> result.counts().empty()), sum(ran, (result) -> result.counts().pongs()), null);
		Map<String, Long> keysPerNode = ran.stream()
			.map((result) -> result.cluster().keysPerNode())
			.filter(Objects::nonNull)
			.flatMap((each) -> each.entrySet().stream())
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, Long::sum, TreeMap::new));
		RunResult.ClusterUse cluster = new RunResult.ClusterUse(keysPerNode.isEmpty() ? null : keysPerNode, null,
				sum(ran, (result) -> result.cluster().commands()), sum(ran, (result) -> result.cluster().redirects()));
		RunResult.Load load = new RunResult.Load(Latency.of(base.load().latency().per(), histogram), null, null, null,
				null, null);
		RunResult.Connection connection = new RunResult.Connection(base.connection().connector(), null, null,
				base.connection().master());
		RunResult merged = new RunResult(what, timing, counts, cluster,
				new RunResult.Notes(partial ? summary : null, base.notes().sample()), null, load, connection,
				new RunResult.ServerSide(server, null), null, base.settings());
		Fleet fleet = new Fleet(asked, ran.size(), partial ? Boolean.TRUE : null,
				stoppedNames.isEmpty() ? null : stoppedNames, Fleet.COORDINATION, members);
		return new FleetResult(merged, fleet, summary, stopped);
	}

	/** The leader's own as measured, the others' as sent. */
	private static @Nullable Histogram histogram(FleetRuns.Signal report, RunResult result) {
		if (report.histogram() == null) {
			return result.load().latency().histogram();
		}
		try {
			return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(report.histogram()), 0);
		}
		catch (DataFormatException | IllegalArgumentException ex) {
			log.warn("Ignoring the unreadable latency histogram of {}: {}", report.instance(), ex.getMessage());
			return null;
		}
	}

	private static @Nullable Long sum(List<RunResult> results, Function<RunResult, @Nullable Long> figure) {
		return results.stream().map(figure).filter(Objects::nonNull).reduce(Long::sum).orElse(null);
	}

}
