package dev.pipelininglab.run;

import org.jspecify.annotations.Nullable;

/**
 * The part of a run's answer about its time limit ({@code duration}): present only when
 * one was given, it says how many commands the timed pass sent and whether the limit or
 * the {@code count} ended it.
 *
 * @param seconds the time limit asked for
 * @param endedRun whether the limit ended the pass before its {@code count} commands
 * (false: every command ran in time)
 * @param commandsRan commands the timed pass sent (the median pass when repeated), on
 * which ops/s and the read-back are based
 */
public record TimeLimit(double seconds, boolean endedRun, long commandsRan) {

	static @Nullable TimeLimit of(Workload workload, Clients.Outcome outcome) {
		if (workload.duration() == null) {
			return null;
		}
		return new TimeLimit(workload.duration().toMillis() / 1000.0, outcome.timeUp(), outcome.sent());
	}

}
