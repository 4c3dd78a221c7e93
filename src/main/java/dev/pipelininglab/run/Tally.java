package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Counts replies as batches complete, keeping only the first few values, so memory stays flat however many
 * commands a run sends.
 */
final class Tally {

	private final int sampleLimit;

	private final List<String> sample;

	private long values;

	private long nils;

	Tally(int sampleLimit) {
		this.sampleLimit = sampleLimit;
		this.sample = new ArrayList<>(Math.min(sampleLimit, 1024));
	}

	/** A reply that carried something; {@code shown} is added to the sample while there is room. */
	void value(@Nullable String shown) {
		this.values++;
		if (shown != null && this.sample.size() < this.sampleLimit) {
			this.sample.add(shown);
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

	long values() {
		return this.values;
	}

	long nils() {
		return this.nils;
	}

	long replies() {
		return this.values + this.nils;
	}

	List<String> sample() {
		return List.copyOf(this.sample);
	}

}
