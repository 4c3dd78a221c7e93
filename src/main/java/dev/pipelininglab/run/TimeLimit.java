package dev.pipelininglab.run;

import org.jspecify.annotations.Nullable;

/** The answer's {@code timeLimit}, present only with {@code duration} (docs/api.md). */
public record TimeLimit(double seconds, boolean endedRun, long commandsRan) {

	static @Nullable TimeLimit of(Workload workload, ClientThreads.Outcome outcome) {
		if (workload.duration() == null) {
			return null;
		}
		return new TimeLimit(workload.duration().toMillis() / 1000.0, outcome.timeUp(), outcome.sent());
	}

}
