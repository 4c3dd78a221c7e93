package dev.pipelininglab.run;

import org.jspecify.annotations.Nullable;
import java.util.Objects;

import org.springframework.dao.DataAccessException;

/**
 * A run that Redis stopped part-way. Keeps what had been acknowledged, so a failure never
 * loses track of what was already written.
 */
public class RunFailedException extends RuntimeException {

	private final RunSpec spec;

	private final long batchesCompleted;

	private final long acknowledged;

	private final String key;

	private final long rejected;

	private final long unconfirmed;

	private final @Nullable Long written;

	private final @Nullable Long verified;

	RunFailedException(RunSpec spec, long batchesCompleted, long acknowledged, String key, DataAccessException cause) {
		this(spec, batchesCompleted, acknowledged, 0, 0, null, null, key, cause);
	}

	/**
	 * @param tally everything Redis answered, including the replies of the batch that
	 * failed
	 * @param verified SET: keys read back after the failure that hold their value, or
	 * null if not read back
	 */
	RunFailedException(RunSpec spec, long batchesCompleted, Tally tally, @Nullable Long verified, String key,
			DataAccessException cause) {
		this(spec, batchesCompleted, tally.replies(), tally.rejectedCount(), tally.unconfirmedCount(),
				RunService.writes(spec.operation()) ? tally.values() : null, verified, key, cause);
	}

	private RunFailedException(RunSpec spec, long batchesCompleted, long acknowledged, long rejected, long unconfirmed,
			@Nullable Long written, @Nullable Long verified, String key, DataAccessException cause) {
		super(spec.operation().label() + " " + spec.mode().label() + " failed after " + batchesCompleted + " of "
				+ spec.batchesPerPass() + " batches: " + cause.getMessage(), cause);
		this.spec = spec;
		this.batchesCompleted = batchesCompleted;
		this.acknowledged = acknowledged;
		this.key = key;
		this.rejected = rejected;
		this.unconfirmed = unconfirmed;
		this.written = written;
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

	/** Commands answered without an error, including those of the failing batch. */
	public long acknowledged() {
		return this.acknowledged;
	}

	/**
	 * Commands Redis answered with an error reply (WRONGTYPE, OOM...); they changed
	 * nothing.
	 */
	public long rejected() {
		return this.rejected;
	}

	/**
	 * Commands sent whose replies never arrived (connection lost, timeout); they may or
	 * may not have run.
	 */
	public long unconfirmed() {
		return this.unconfirmed;
	}

	/**
	 * Writes (SET, RPUSH, LPUSH, INCR, HSET, SADD, ZADD): commands Redis acknowledged,
	 * including those beside a refused one in the failing batch.
	 */
	public @Nullable Long written() {
		return this.written;
	}

	/**
	 * SET: keys read back after the failure that hold their value; null when Redis could
	 * not be asked.
	 */
	public @Nullable Long verified() {
		return this.verified;
	}

	/** The key (or key pattern) the failing commands addressed. */
	public String key() {
		return this.key;
	}

	@Override
	public synchronized DataAccessException getCause() {
		return (DataAccessException) Objects.requireNonNull(super.getCause(), "made with a cause");
	}

}
