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

	/** A job that finds every run slot taken and no place in the queue. */
	public static String slotsTaken(int maxConcurrent, int queueCapacity) {
		return "Every run slot of this instance is taken (" + maxConcurrent
				+ " runs at once, GET runs and jobs together: lab.admission.max-concurrent)"
				+ ((queueCapacity > 0) ? " and " + queueCapacity + " jobs wait for one (lab.jobs.queue-capacity)" : "")
				+ "; try again later";
	}

	@Override
	public Duration retryAfter() {
		return this.retryAfter;
	}

}
