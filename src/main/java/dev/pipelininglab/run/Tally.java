package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Counts replies as batches complete, keeping only the first few values, so memory stays
 * flat however many commands a run sends.
 */
final class Tally {

	/**
	 * Longer values are shown cut, with their length: a sample of ten 1 MiB values would
	 * otherwise be a 10 MiB answer.
	 */
	static final int SHOWN_CHARS = 64;

	private final int sampleLimit;

	private final List<String> sample;

	private long values;

	private long nils;

	private long rejected;

	private long unconfirmed;

	private long redirects;

	Tally(int sampleLimit) {
		this.sampleLimit = sampleLimit;
		this.sample = new ArrayList<>(Math.min(sampleLimit, 1024));
	}

	/**
	 * A reply that carried something; {@code shown} is added to the sample while there is
	 * room.
	 */
	void value(@Nullable String shown) {
		this.values++;
		if (shown != null && this.sample.size() < this.sampleLimit) {
			this.sample.add((shown.length() <= SHOWN_CHARS) ? shown
					: shown.substring(0, SHOWN_CHARS) + "... (" + shown.length() + " bytes)");
		}
	}

	/**
	 * {@code commands} acknowledgements (OK, a count, a flag), for a batch sent as one
	 * command: counted, not sampled.
	 */
	void acknowledged(long commands) {
		for (long i = 0; i < commands; i++) {
			value(null);
		}
	}

	/** A reply that may be nil: a value is counted and sampled, nil counted as such. */
	void reply(@Nullable Object reply) {
		if (reply != null) {
			value(reply.toString());
		}
		else {
			nil();
		}
	}

	void nil() {
		this.nils++;
	}

	/**
	 * A command Redis answered with an error reply (WRONGTYPE, OOM...): it did nothing.
	 */
	void rejected() {
		this.rejected++;
	}

	/**
	 * Commands sent whose replies never arrived (connection lost, timeout): they may or
	 * may not have run.
	 */
	void unconfirmed(long commands) {
		this.unconfirmed += commands;
	}

	/**
	 * Commands a cluster node answered with MOVED or ASK and that were sent again to the
	 * node named: each resend counts once.
	 */
	void redirected(long commands) {
		this.redirects += commands;
	}

	/** Adds another client's replies; its sample goes after this one's. */
	void add(Tally other) {
		this.values += other.values;
		this.nils += other.nils;
		this.rejected += other.rejected;
		this.unconfirmed += other.unconfirmed;
		this.redirects += other.redirects;
		for (String shown : other.sample) {
			if (this.sample.size() >= this.sampleLimit) {
				break;
			}
			this.sample.add(shown);
		}
	}

	long values() {
		return this.values;
	}

	long nils() {
		return this.nils;
	}

	long replies() {
		return this.values + this.nils;
	}

	long rejectedCount() {
		return this.rejected;
	}

	long unconfirmedCount() {
		return this.unconfirmed;
	}

	long redirectsCount() {
		return this.redirects;
	}

	List<String> sample() {
		return List.copyOf(this.sample);
	}

}
