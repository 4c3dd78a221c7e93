package dev.pipelininglab.run;

import org.springframework.dao.DataAccessException;

/**
 * A run that Redis stopped part-way. Keeps what had been acknowledged, so a failure never loses track of what
 * was already written.
 */
public class RunFailedException extends RuntimeException {

	private final RunSpec spec;

	private final long batchesCompleted;

	private final long batchesTotal;

	private final long acknowledged;

	private final String key;

	RunFailedException(RunSpec spec, long batchesCompleted, long acknowledged, String key, DataAccessException cause) {
		super(spec.operation().label() + " " + spec.mode().label() + " failed after " + batchesCompleted + " of "
				+ spec.batches() + " batches: " + cause.getMessage(), cause);
		this.spec = spec;
		this.batchesCompleted = batchesCompleted;
		this.batchesTotal = spec.batches();
		this.acknowledged = acknowledged;
		this.key = key;
	}

	public RunSpec spec() {
		return this.spec;
	}

	public long batchesCompleted() {
		return this.batchesCompleted;
	}

	public long batchesTotal() {
		return this.batchesTotal;
	}

	/** Commands whose replies arrived before the failure. */
	public long acknowledged() {
		return this.acknowledged;
	}

	/** The key (or key pattern) the failing commands addressed. */
	public String key() {
		return this.key;
	}

	@Override
	public synchronized DataAccessException getCause() {
		return (DataAccessException) super.getCause();
	}

}
