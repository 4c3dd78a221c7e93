package dev.pipelininglab.job;

import java.time.Duration;

/**
 * Every run slot of this instance is taken (or it is shutting down); the client should
 * come back later.
 */
public class JobsFullException extends RuntimeException {

	private final Duration retryAfter;

	public JobsFullException(String message, Duration retryAfter) {
		super(message);
		this.retryAfter = retryAfter;
	}

	public Duration retryAfter() {
		return this.retryAfter;
	}

}
