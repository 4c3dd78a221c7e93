package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Counts replies, keeping only the first few values, so memory stays flat at any count.
 */
final class Tally {

	/** A sample of ten 1 MiB values would otherwise be a 10 MiB answer. */
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

	void value(@Nullable String shown) {
		this.values++;
		if (shown != null && this.sample.size() < this.sampleLimit) {
			this.sample.add((shown.length() <= SHOWN_CHARS) ? shown
					: shown.substring(0, SHOWN_CHARS) + "... (" + shown.length() + " bytes)");
		}
	}

	/** A batch sent as one command: counted, not sampled. */
	void acknowledged(long commands) {
		this.values += commands;
	}

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

	/** An error reply (WRONGTYPE, OOM...): the command did nothing. */
	void rejected() {
		this.rejected++;
	}

	/** Replies that never arrived: the commands may or may not have run. */
	void unconfirmed(long commands) {
		this.unconfirmed += commands;
	}

	/** MOVED or ASK replies sent again to the node named, each resend once. */
	void redirected(long commands) {
		this.redirects += commands;
	}

	void add(Tally other) {
		this.values += other.values;
		this.nils += other.nils;
		this.rejected += other.rejected;
		this.unconfirmed += other.unconfirmed;
		this.redirects += other.redirects;
		this.sample
			.addAll(other.sample.subList(0, Math.min(other.sample.size(), this.sampleLimit - this.sample.size())));
	}

	long values() {
		return this.values;
	}

	long nils() {
		return this.nils;
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
