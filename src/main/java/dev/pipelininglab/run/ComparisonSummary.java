package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import org.jspecify.annotations.Nullable;

import static dev.pipelininglab.run.LoopCeiling.format;
import static dev.pipelininglab.run.LoopCeiling.whole;

/**
 * A comparison's summary, the answer a Spring developer came for first: what
 * {@code executePipelined} gives against the loop, as Spring Boot ships it and with the
 * lab's one line of configuration, each with the spread of its passes; then the batch
 * size to use, what is faster still when the code can use it, and why the rows went as
 * they did.
 */
final class ComparisonSummary {

	/** Passes further apart than this are too unsteady to conclude from. */
	static final double UNSTEADY = 2;

	/** Faster than a pipeline, but only for code that can send its items that way. */
	private static final Set<Mode> NO_PIPELINE = Set.of(Mode.MULTI_KEY, Mode.MULTI_KEY_HASHTAG, Mode.SCRIPT);

	private ComparisonSummary() {
	}

	/** Socket reads per item, not per command: one MSET carries a whole batch. */
	static String of(List<RunResult> results, @Nullable RunResult advised, @Nullable Recommendation recommendation) {
		if (results.isEmpty()) {
			return "Nothing ran: every variant was skipped.";
		}
		RunResult fastest = Recommendation.best(results, (r) -> r.timing().opsPerSecond());
		RunResult loop = results.stream()
			.filter((result) -> result.ran().mode() == Mode.LOOP && lettuce(result))
			.findFirst()
			.orElse(results.stream().filter((result) -> result.ran().mode() == Mode.LOOP).findFirst().orElse(null));
		RunResult asBoot = results.stream()
			.filter((result) -> result.ran().mode() == Mode.PIPELINED && lettuce(result)
					&& FlushPolicy.FLUSH_EACH_COMMAND.toString().equals(result.ran().flushPolicy())
					&& result.ran().writes() == null)
			.findFirst()
			.orElse(null);
		RunResult configured = (advised != null && advised != asBoot) ? advised : null;
		StringBuilder sentence = new StringBuilder();
		List<RunResult> answered = new ArrayList<>();
		if (loop != null && (asBoot != null || configured != null)) {
			sentence.append(pipelining(loop, asBoot, configured));
			Stream.of(loop, asBoot, configured).filter(Objects::nonNull).forEach(answered::add);
		}
		else {
			sentence.append(fastest(results, fastest, loop));
		}
		if (recommendation != null) {
			sentence.append(' ').append(recommendation.summary());
		}
		String faster = evenFaster(results, answered);
		if (faster != null) {
			sentence.append(' ').append(faster);
		}
		unsteady(answered.isEmpty() ? results : answered).forEach((line) -> sentence.append(' ').append(line));
		String reads = readsPerItem(fastest);
		if (loop != null && loop != fastest) {
			String loopReads = readsPerItem(loop);
			if (reads != null && loopReads != null) {
				sentence.append(format(" Server socket reads per item: %s for the loop, %s for %s.", loopReads, reads,
						fastest.ran().variant()));
			}
		}
		else if (reads != null) {
			sentence.append(format(" Server socket reads per item: %s.", reads));
		}
		String byNode = byNode(results);
		if (byNode != null) {
			sentence.append(' ').append(byNode);
		}
		return LoopCeiling.after(sentence, results);
	}

	/** The first sentence: the pipeline Boot gives, the one configured, the loop. */
	private static String pipelining(RunResult loop, @Nullable RunResult asBoot, @Nullable RunResult configured) {
		List<String> parts = new ArrayList<>();
		if (asBoot != null) {
			parts.add(format("executePipelined as Spring Boot gives it (%s) ran %s the loop", asBoot.ran().variant(),
					times(asBoot)));
		}
		if (configured != null) {
			parts.add(format(
					(asBoot != null) ? "with one line of configuration (%s) %s"
							: "executePipelined with one line of configuration (%s) ran %s the loop",
					configured.ran().variant(), times(configured)));
		}
		return String.join("; ", parts) + format(", whose %s ran %s ops/s%s.", loop.ran().variant(),
				whole(loop.timing().opsPerSecond()), range(loop.timing(), ""));
	}

	/** No loop or no pipeline to set against it: the fastest row, as before. */
	private static String fastest(List<RunResult> results, RunResult fastest, @Nullable RunResult loop) {
		StringBuilder sentence = new StringBuilder();
		sentence.append(format((results.size() == 1) ? "Only %s ran: %s ops/s%s" : "Fastest: %s at %s ops/s%s",
				fastest.ran().variant(), whole(fastest.timing().opsPerSecond()), range(fastest.timing(), "")));
		if (results.size() > 1 && loop != null && loop != fastest) {
			sentence.append(format(", %s the loop (%s ops/s)", times(fastest), whole(loop.timing().opsPerSecond())));
		}
		return sentence.append('.').toString();
	}

	/** MSET, a script: faster than the answer's pipelines, for code that can use them. */
	private static @Nullable String evenFaster(List<RunResult> results, List<RunResult> answered) {
		if (answered.isEmpty()) {
			return null;
		}
		double best = answered.stream().mapToDouble((r) -> r.timing().opsPerSecond()).max().orElse(0);
		List<String> faster = results.stream()
			// Lettuce's, as the answer's pipelines: a Jedis row's speedup is over the
			// Jedis loop.
			.filter((result) -> NO_PIPELINE.contains(result.ran().mode()) && lettuce(result)
					&& result.timing().opsPerSecond() > best)
			.sorted(Comparator.comparingDouble((RunResult r) -> r.timing().opsPerSecond()).reversed())
			.map((result) -> format("%s %s", result.ran().variant(), times(result)))
			.toList();
		return faster.isEmpty() ? null : "Even faster, if your code can use them: " + String.join(", ", faster) + ".";
	}

	/** A row whose passes ranged more than {@value #UNSTEADY}× apart. */
	private static List<String> unsteady(List<RunResult> rows) {
		List<String> lines = new ArrayList<>();
		for (RunResult row : rows) {
			RunResult.Timing timing = row.timing();
			if (timing.opsPerSecondMin() != null && timing.opsPerSecondMin() > 0
					&& timing.fastest() / timing.slowest() > UNSTEADY) {
				lines.add(format(
						"Unsteady: the passes of %s ranged %s–%s ops/s (%.1f× apart), too wide to conclude from;"
								+ " something else on this machine or Redis was busy, so run it again.",
						row.ran().variant(), whole(timing.slowest()), whole(timing.fastest()),
						timing.fastest() / timing.slowest()));
			}
		}
		return lines;
	}

	/** "18.4× (12.1–25.0×)", the spread when passes were repeated. */
	static String times(RunResult row) {
		double speedup = (row.speedup() != null) ? row.speedup() : 1;
		String shown = format("%.1f×", speedup);
		if (row.speedupMin() != null && row.speedupMax() != null) {
			shown += format(" (%.1f–%.1f×)", row.speedupMin(), row.speedupMax());
		}
		return shown;
	}

	/** " (110,000–130,000)" after an ops/s figure, when repeated. */
	static String range(RunResult.Timing timing, String unit) {
		if (timing.opsPerSecondMin() == null || timing.opsPerSecondMax() == null) {
			return "";
		}
		return format(" (%s–%s%s)", whole(timing.opsPerSecondMin()), whole(timing.opsPerSecondMax()), unit);
	}

	private static boolean lettuce(RunResult result) {
		return Connector.LETTUCE.label().equals(result.connection().connector().name());
	}

	private static @Nullable String byNode(List<RunResult> results) {
		RunResult byNode = results.stream()
			.filter((result) -> result.ran().mode() == Mode.PIPELINED_BY_NODE)
			.findFirst()
			.orElse(null);
		RunResult pipelined = results.stream()
			.filter((result) -> result.ran().mode() == Mode.PIPELINED)
			.max(Comparator.comparingDouble((r) -> r.timing().opsPerSecond()))
			.orElse(null);
		if (byNode == null || pipelined == null) {
			return null;
		}
		return format(
				"%s (%s ops/s) hands every command to Lettuce's cluster router from one caller thread;"
						+ " %s (%s ops/s) groups each batch by the master owning each key's slot and sends one pipeline"
						+ " per master on that master's own connection, all masters at once.",
				pipelined.ran().variant(), whole(pipelined.timing().opsPerSecond()), byNode.ran().variant(),
				whole(byNode.timing().opsPerSecond()));
	}

	private static @Nullable String readsPerItem(RunResult result) {
		Long reads = (result.serverSide().server() != null) ? result.serverSide().server().reads() : null;
		return (reads != null) ? format("%.3f", (double) reads / result.commandsRan()) : null;
	}

}
