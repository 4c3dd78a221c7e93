package dev.pipelininglab.run;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

/** A run that Redis stopped part-way, with what had been acknowledged by then. */
public class RunFailedException extends RuntimeException {

	private final RunSpec spec;

	private final long batchesCompleted;

	private final long acknowledged;

	private final String key;

	private final long rejected;

	private final long unconfirmed;

	private final @Nullable Long written;

	private final @Nullable Long verified;

	/** {@code verified}: null if not read back. */
	RunFailedException(RunSpec spec, long batchesCompleted, Tally tally, @Nullable Long verified, String key,
			DataAccessException cause) {
		super(spec.operation().label() + " " + spec.mode().label() + " failed after " + batchesCompleted + " of "
				+ spec.batchesPerPass() + " batches: " + cause.getMessage(), cause);
		this.spec = spec;
		this.batchesCompleted = batchesCompleted;
		this.acknowledged = tally.values() + tally.nils();
		this.key = key;
		this.rejected = tally.rejectedCount();
		this.unconfirmed = tally.unconfirmedCount();
		this.written = spec.operation().command().writes() ? tally.values() : null;
		this.verified = verified;
	}

	public RunSpec spec() {
		return this.spec;
	}

	public long batchesCompleted() {
		return this.batchesCompleted;
	}

	public long batchesTotal() {
		return this.spec.batchesPerPass();
	}

	public long acknowledged() {
		return this.acknowledged;
	}

	public long rejected() {
		return this.rejected;
	}

	public long unconfirmed() {
		return this.unconfirmed;
	}

	/** Writes only, those beside a refused one in the failing batch included. */
	public @Nullable Long written() {
		return this.written;
	}

	/** Null when Redis could not be asked. */
	public @Nullable Long verified() {
		return this.verified;
	}

	public String key() {
		return this.key;
	}

	@Override
	public synchronized DataAccessException getCause() {
		return (DataAccessException) Objects.requireNonNull(super.getCause(), "made with a cause");
	}

}
