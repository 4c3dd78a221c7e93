package dev.pipelininglab.run;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The sentence that explains the loop: one command per round trip cannot beat 1/RTT. The
 * bound comes from the loop's own median latency, not the PINGs before the run: on a cold
 * connection or a busy machine those printed 1,117 ops/s beside a loop that ran at
 * 11,216. A bound the run's own figure breaks is never printed; a sweep's batch size 1
 * stands in for the loop.
 */
public final class LoopCeiling {

	/** PINGs and the loop's own median agree within this factor. */
	private static final double AGREE = 1.5;

	private LoopCeiling() {
	}

	/** Null when the results hold no round trip to speak of. */
	public static @Nullable String sentence(List<RunResult> results) {
		RunResult loop = results.stream()
			.filter((result) -> result.ran().mode() == Mode.LOOP && result.load().latency() != null
					&& result.load().latency().per() == Latency.Per.COMMAND && result.load().latency().p50() > 0)
			.findFirst()
			.orElse(null);
		if (loop != null) {
			return fromTheLoop(loop, "The loop");
		}
		// A sweep's batch size 1 is one command per round trip, each timed as the loop's.
		RunResult single = results.stream()
			.filter((result) -> result.ran().batchSize() == 1 && result.connection().clients() == null
					&& result.load().fanOut() == null && result.load().latency() != null
					&& result.load().latency().per() != Latency.Per.REQUEST && result.load().latency().p50() > 0)
			.findFirst()
			.orElse(null);
		return (single != null) ? fromTheLoop(single, "At batch size 1, " + single.ran().variant())
				: fromPings(results);
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
		StringBuilder sentence = new StringBuilder();
		if (loop.timing().opsPerSecond() <= bound) {
			sentence.append(format(
					"%s's own commands took %s ms each (median round trip), so %s cannot beat"
							+ " %s ops/s; it ran at %s.",
					name, figure(p50),
					(clients > 1) ? clients + " loops on " + clients + " connections" : "a loop on one connection",
					whole(bound), whole(loop.timing().opsPerSecond())));
		}
		else {
			sentence.append(format("%s ran at %s ops/s, faster than the median of its own round trips"
					+ " (%s ms, at most %s ops/s) allows: its round trips were uneven, so that median bounds"
					+ " nothing here.", name, whole(loop.timing().opsPerSecond()), figure(p50), whole(bound)));
		}
		double ping = loop.timing().measuredRttMillis();
		if (ping > 0 && (ping / p50 > AGREE || p50 / ping > AGREE)) {
			sentence.append(format(" PINGs just before the run measured %s ms: the two measures disagree (a"
					+ " connection still cold, or a busy machine), and the bound above comes from the commands"
					+ " themselves.", figure(ping)));
		}
		return sentence.toString();
	}

	/** Checked against runs of one command per round trip. */
	private static @Nullable String fromPings(List<RunResult> results) {
		if (results.stream().noneMatch((r) -> r.timing().measuredRttMillis() > 0)) {
			return null;
		}
		double rtt = RunService
			.median(results.stream().mapToDouble((r) -> r.timing().measuredRttMillis()).filter((ms) -> ms > 0));
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
