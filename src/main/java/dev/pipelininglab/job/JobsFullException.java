package dev.pipelininglab.job;

import java.time.Duration;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;

/**
 * Every run slot of this instance is taken (or it is shutting down); the client should
 * come back later.
 */
public class JobsFullException extends ProblemException {

	private final Duration retryAfter;

	public JobsFullException(String message, Duration retryAfter) {
		super(ProblemType.TOO_BUSY, message);
		this.retryAfter = retryAfter;
	}

	@Override
	public Duration retryAfter() {
		return this.retryAfter;
	}

}
