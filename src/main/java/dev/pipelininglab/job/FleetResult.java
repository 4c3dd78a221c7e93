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
import java.util.stream.Stream;
import java.util.zip.DataFormatException;

import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.redis.ServerStats;
import dev.pipelininglab.run.FleetShares;
import dev.pipelininglab.run.Latency;
import dev.pipelininglab.run.ReadBack;
import dev.pipelininglab.run.RunObserver;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunSpec;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static dev.pipelininglab.run.RunService.round;

/**
 * A fleet run's members merged into one result, as docs/api.md describes: latency from
 * their histograms added, never their percentiles averaged; {@code written} and
 * {@code verified} as the leader read each share back, never as a member says (a fleet
 * runs SET or GET, so no other count applies).
 */
record FleetResult(RunResult result, Fleet fleet, String summary) {

	private static final Logger log = LoggerFactory.getLogger(FleetResult.class);

	/**
	 * A member's figures count only for keys Redis holds: each share is read back, and
	 * none for a run that writes nothing (GET).
	 * @param window the servers' INFO deltas from the start signal to the last report
	 */
	static FleetResult merge(ActiveRun job, FleetShares shares, FleetShares.Keys keys, List<Fleet.Member> planned,
			Map<String, FleetChannel.Signal> reports, @Nullable ServerStats window,
			ServerCounters.@Nullable Processed processed, long windowNanos) {
		RunSpec whole = job.plan.base();
		if (whole.operation().writesKeys()) {
			job.phase(RunObserver.Phase.VERIFYING, "", whole.batchSize(), whole.count());
		}
		int asked = job.plan.instances();
		List<RunSpec> sentShares = new ArrayList<>();
		List<RunResult> sentResults = new ArrayList<>();
		boolean readBack = false;
		List<RunResult> ran = new ArrayList<>();
		List<Fleet.Member> members = new ArrayList<>();
		List<Fleet.Member> stopped = new ArrayList<>();
		List<String> notes = new ArrayList<>();
		Histogram histogram = new Histogram(3);
		long first = reports.values()
			.stream()
			.map(FleetChannel.Signal::at)
			.filter(Objects::nonNull)
			.min(Long::compare)
			.orElse(0L);
		double windowMicros = 0;
		long skewMicros = 0;
		ReadBack read = ReadBack.NONE;
		long expected = 0;
		for (Fleet.Member member : planned) {
			FleetChannel.Signal report = reports.get(member.instance());
			RunResult result = (report != null) ? report.result() : null;
			Histogram own = (report != null && result != null) ? histogram(report, result) : null;
			Fleet.Share range = Objects.requireNonNull(member.share());
			ReadBack share = null;
			if (result != null) {
				RunSpec spec = whole.share(range.from(), range.to());
				sentShares.add(spec);
				sentResults.add(result);
				share = keys.readBack(spec, job);
				readBack |= share != null;
			}
			boolean missing = share != null && share.keys() == 0;
			if (report == null || result == null || report.at() == null || own == null || missing) {
				String why = (report == null) ? "no result by its deadline"
						: !missing ? Objects.requireNonNullElse(report.problem(), "no result")
								: "reported a result, but Redis holds none of its share (keys " + range.from() + " to "
										+ (range.to() - 1) + ")";
				stopped.add(member);
				members.add(new Fleet.Member(member.instance(), range, null, null, null, null, null, null, why));
				continue;
			}
			ran.add(result);
			histogram.add(own);
			long start = report.at() - first;
			skewMicros = Math.max(skewMicros, start);
			windowMicros = Math.max(windowMicros, start + result.timing().elapsedMillis() * 1000);
			if (share != null) {
				read = read.plus(share);
				expected += range.to() - range.from();
			}
			if (result.notes().note() != null) {
				notes.add(member.instance() + ": " + result.notes().note());
			}
			members.add(new Fleet.Member(member.instance(), range,
					(share != null) ? Long.valueOf(share.keys()) : result.counts().written(),
					(share != null) ? Long.valueOf(share.verified()) : null, result.load().latency(),
					result.timing().opsPerSecond(), round(start / 1000.0, 3), result.limitedBy(), null));
		}
		if (ran.isEmpty()) {
			throw new IllegalStateException("No member of the fleet gave a result that Redis holds");
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
		String shortfall = readBack ? read.shortfall(expected, window, whole.ttl() != null) : null;
		if (shortfall != null && job.overlapped()) {
			shortfall += " Another run measured under this key prefix at the same time: runs on the same keys clear"
					+ " and write each other's.";
		}
		String note = Stream.concat(Stream.of(partial ? summary : null, shortfall), notes.stream())
			.filter(Objects::nonNull)
			.collect(Collectors.joining(" "));
		RunResult.Ran what = new RunResult.Ran(base.ran().operation(), base.ran().mode(), base.ran().variant(),
				base.ran().flushPolicy(), base.ran().writes(), items, base.ran().batchSize(),
				ran.stream().mapToLong((result) -> result.ran().batches()).sum(), base.ran().topology());
		RunResult.Timing timing = new RunResult.Timing(round(windowMicros / 1000, 3), opsPerSecond, null, null, 1, null,
				base.timing().addedRttMillis(), base.timing().measuredRttMillis(),
				base.timing().measuredRttMillisByNode());
		RunResult.Counts counts = new RunResult.Counts(sum(members, Fleet.Member::written),
				sum(members, Fleet.Member::verified), sum(ran, (result) -> result.counts().hits()),
				sum(ran, (result) -> result.counts().misses()), null, null, null, null);
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
				new RunResult.Notes(note.isEmpty() ? null : note, base.notes().sample()), null, null, null, load,
				connection, new RunResult.ServerSide(window,
						// Only when every member said what it sent.
						(sentShares.size() == planned.size())
								? shares.foreign(sentShares, sentResults, processed, windowNanos) : null),
				null, base.settings());
		Fleet fleet = new Fleet(asked, ran.size(), partial ? Boolean.TRUE : null,
				stoppedNames.isEmpty() ? null : stoppedNames, Fleet.COORDINATION, members);
		return new FleetResult(merged, fleet, summary);
	}

	static RunSpec share(RunSpec whole, Fleet.Member member) {
		Fleet.Share share = Objects.requireNonNull(member.share());
		return whole.share(share.from(), share.to());
	}

	/** The leader's own as measured, the others' as sent. */
	private static @Nullable Histogram histogram(FleetChannel.Signal report, RunResult result) {
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

	private static <T> @Nullable Long sum(List<T> parts, Function<T, @Nullable Long> figure) {
		return parts.stream().map(figure).filter(Objects::nonNull).reduce(Long::sum).orElse(null);
	}

}
