package dev.pipelininglab.run;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

import static dev.pipelininglab.run.LoopCeiling.format;
import static dev.pipelininglab.run.LoopCeiling.whole;

/** The same work by every requested variant, each from the same starting state. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Comparison(Operation operation, long count, String topology, List<RunResult> results,
		List<Skipped> skipped, String summary, @Nullable Map<String, String> settings) {

	public record Skipped(String variant, String reason) {
	}

	/** Socket reads per item, not per command: one MSET carries a whole batch. */
	static String summary(List<RunResult> results) {
		if (results.isEmpty()) {
			return "Nothing ran: every variant was skipped.";
		}
		RunResult fastest = Recommendation.best(results, (r) -> r.timing().opsPerSecond());
		RunResult loop = results.stream().filter((result) -> result.ran().mode() == Mode.LOOP).findFirst().orElse(null);
		StringBuilder sentence = new StringBuilder();
		if (results.size() == 1) {
			sentence.append(
					format("Only %s ran: %s ops/s", fastest.ran().variant(), whole(fastest.timing().opsPerSecond())));
		}
		else {
			sentence.append(
					format("Fastest: %s at %s ops/s", fastest.ran().variant(), whole(fastest.timing().opsPerSecond())));
			if (loop != null && loop != fastest) {
				sentence.append(format(", %.1f× the loop (%s ops/s)",
						fastest.timing().opsPerSecond() / loop.timing().opsPerSecond(),
						whole(loop.timing().opsPerSecond())));
			}
		}
		sentence.append('.');
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
		return (reads != null) ? format("%.3f", (double) reads / result.ran().count()) : null;
	}

}
