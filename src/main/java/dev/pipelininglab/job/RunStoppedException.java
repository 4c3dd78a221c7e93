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

	public RunRecord record() {
		return this.record;
	}

	public Duration elapsed() {
		return this.elapsed;
	}

	/** In the order they are looked at; CANCELLED is {@code DELETE /runs/{id}}. */
	public enum Reason {

		CANCELLED, SHUTDOWN, MAX_RUN_TIME, CALLER_GONE

	}

}
