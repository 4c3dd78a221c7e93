package dev.pipelininglab.job;

import java.time.Duration;

/**
 * A run its waiting caller asked for (a GET run) stopped between commands before its end,
 * and why: the caller's answer says so.
 */
public class RunStoppedException extends RuntimeException {

	private final Reason reason;

	private final RunRecord record;

	private final Duration elapsed;

	RunStoppedException(Reason reason, RunRecord record, Duration elapsed) {
		super("Run " + record.id() + " stopped: " + reason);
		this.reason = reason;
		this.record = record;
		this.elapsed = elapsed;
	}

	public Reason reason() {
		return this.reason;
	}

	/** The run's final record: its id, and the problem it ended with. */
	public RunRecord record() {
		return this.record;
	}

	/** How long it ran before it stopped. */
	public Duration elapsed() {
		return this.elapsed;
	}

	/** What stopped it, in the order they are looked at. */
	public enum Reason {

		/** {@code DELETE /runs/{id}}. */
		CANCELLED,
		/** The app is shutting down. */
		SHUTDOWN,
		/** It ran for {@code lab.limits.max-run-time}. */
		MAX_RUN_TIME,
		/** Its caller hung up. */
		CALLER_GONE

	}

}
