package dev.pipelininglab.run;

import org.jspecify.annotations.Nullable;

/**
 * What each item of a run carries and how often the run is repeated as requests, beyond
 * the command itself.
 *
 * @param valueSize bytes per value, or 0 for the plain {@code value-<i>}
 * @param requests fan-out: the whole run is sent this many times, one after the other, as
 * an API handler does once per incoming request; 1 for a plain run
 * @param maxBatchBytes values one batch may hold at most (batch size x value size); a
 * larger batch is shrunk
 * @param batchSizeAsked the batch size asked for, when the byte budget shrank it; else
 * null
 */
public record Workload(int valueSize, int requests, long maxBatchBytes, @Nullable Integer batchSizeAsked) {

	/** Today's small values, one request, and no byte budget that could bite. */
	public static final Workload PLAIN = new Workload(0, 1, Long.MAX_VALUE, null);

	public Workload {
		if (valueSize < 0 || requests < 1 || maxBatchBytes < 1) {
			throw new IllegalArgumentException("valueSize must not be negative, requests and maxBatchBytes positive");
		}
	}

	public static Workload of(int valueSize, int requests, long maxBatchBytes) {
		return new Workload(valueSize, requests, maxBatchBytes, null);
	}

	/** The largest batch whose values fit the byte budget. */
	int batchSizeLimit() {
		return (this.valueSize == 0) ? Integer.MAX_VALUE
				: (int) Math.max(1, Math.min(Integer.MAX_VALUE, this.maxBatchBytes / this.valueSize));
	}

	Workload shrunkFrom(int batchSize) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, batchSize);
	}

	Workload unshrunk() {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, null);
	}

	Workload single() {
		return new Workload(this.valueSize, 1, this.maxBatchBytes, null);
	}

}
