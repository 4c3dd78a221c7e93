package dev.pipelininglab.run;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The answer's one round trip, and the sentence that explains the loop: one command per
 * round trip cannot beat 1/RTT. The round trip is the loop's own median (a sweep's batch
 * size 1 stands in for the loop); PINGs before the run only where no run timed single
 * round trips: on a cold connection or a busy machine those printed 1,117 ops/s beside a
 * loop that ran at 11,216. A bound the run's own figure breaks is never printed.
 */
public final class LoopCeiling {

	static final String FROM_PINGS = "median of " + WarmUp.RTT_PINGS + " PINGs before the run";

	private LoopCeiling() {
	}

	/** {@code from}: where the figure came from, in words. */
	record RoundTrip(double millis, String from) {
	}

	/**
	 * Every result with the answer's round trip (table, {@code limitedBy}, projection and
	 * summary read the same figure): the loop's median, else the median of the PINGs.
	 */
	static List<RunResult> oneRoundTrip(List<RunResult> results) {
		RunResult own = timingItsRoundTrips(results);
		RoundTrip rtt = (own != null)
				? new RoundTrip(own.load().latency().p50(),
						"median of " + own.ran().variant()
								+ ((own.ran().mode() == Mode.LOOP) ? "" : " at batch size 1"))
				: new RoundTrip(pings(results), FROM_PINGS);
		return results.stream().map((result) -> result.withRoundTrip(rtt)).toList();
	}

	/**
	 * The first run that timed single round trips, unpaced (a paced one is timed from
	 * when each command was due) and not as whole requests, a loop before any other.
	 */
	static @Nullable RunResult timingItsRoundTrips(List<RunResult> results) {
		List<RunResult> timing = results.stream()
			.filter((result) -> result.ran().batchSize() == 1 && result.load().latency().per() != Latency.Per.REQUEST
					&& result.load().offeredRate() == null && result.load().latency().p50() > 0)
			.toList();
		return timing.stream()
			.filter((result) -> result.ran().mode() == Mode.LOOP)
			.findFirst()
			.orElse(timing.isEmpty() ? null : timing.get(0));
	}

	/** Whether one of these will time its own round trips: then no PINGs. */
	static boolean timesItsRoundTrips(List<RunSpec> specs, Function<RunSpec, BatchRunner> runners) {
		return specs.stream()
			.anyMatch((spec) -> runners.apply(spec).perRoundTrip(spec.batchSize()) == 1
					&& spec.workload().requests() == 1 && spec.workload().rate() == 0);
	}

	/** Null when the results hold no round trip to speak of. */
	public static @Nullable String sentence(List<RunResult> results) {
		RunResult own = timingItsRoundTrips(results);
		if (own == null) {
			return fromPings(results);
		}
		return fromTheLoop(own,
				(own.ran().mode() == Mode.LOOP) ? "The loop" : "At batch size 1, " + own.ran().variant());
	}

	/** {@code sentence}, then the ceiling's when there is one. */
	static String after(CharSequence sentence, List<RunResult> results) {
		String ceiling = sentence(results);
		return (ceiling != null) ? sentence + " " + ceiling : sentence.toString();
	}

	private static String fromTheLoop(RunResult loop, String name) {
		double p50 = loop.load().latency().p50();
		int clients = (loop.connection().clients() != null) ? loop.connection().clients().count() : 1;
		double bound = clients * 1000 / p50;
		if (loop.timing().opsPerSecond() <= bound) {
			return format(
					"%s's own commands took %s ms each (median round trip), so %s cannot beat"
							+ " %s ops/s; it ran at %s.",
					name, figure(p50),
					(clients > 1) ? clients + " loops on " + clients + " connections" : "a loop on one connection",
					whole(bound), whole(loop.timing().opsPerSecond()));
		}
		return format("%s ran at %s ops/s, faster than the median of its own round trips"
				+ " (%s ms, at most %s ops/s) allows: its round trips were uneven, so that median bounds"
				+ " nothing here.", name, whole(loop.timing().opsPerSecond()), figure(p50), whole(bound));
	}

	/** Checked against runs of one command per round trip. */
	private static @Nullable String fromPings(List<RunResult> results) {
		double rtt = pings(results);
		if (rtt == 0) {
			return null;
		}
		double bound = 1000 / rtt;
		RunResult faster = results.stream()
			.filter((result) -> result.ran().batchSize() == 1 && result.connection().clients() == null
					&& result.load().fanOut() == null && result.timing().opsPerSecond() > bound)
			.findFirst()
			.orElse(null);
		if (faster != null) {
			return format(
					"PINGs before the run measured %s ms, yet %s at batch size 1 ran at %s ops/s, faster"
							+ " than that round trip allows (%s ops/s): the two measures disagree, so no loop bound is"
							+ " given.",
					figure(rtt), faster.ran().variant(), whole(faster.timing().opsPerSecond()), whole(bound));
		}
		return format("PINGs before the run measured %s ms (median), so a loop on one connection would not beat"
				+ " %s ops/s.", figure(rtt), whole(bound));
	}

	/** The median of the runs' PINGs, 0 when none measured any. */
	private static double pings(List<RunResult> results) {
		double[] pings = results.stream()
			.mapToDouble((r) -> r.timing().measuredRttMillis())
			.filter((ms) -> ms > 0)
			.toArray();
		return (pings.length > 0) ? RunService.median(Arrays.stream(pings)) : 0;
	}

	/** Three significant digits at most: 0.0512, 1.23, 12.3, 123. */
	static String figure(double value) {
		if (value == 0 || !Double.isFinite(value)) {
			return "0";
		}
		return new BigDecimal(value).round(new MathContext(3)).stripTrailingZeros().toPlainString();
	}

	static String whole(double value) {
		return format("%,.0f", value);
	}

	static String format(String pattern, Object... args) {
		return String.format(Locale.ROOT, pattern, args);
	}

}
