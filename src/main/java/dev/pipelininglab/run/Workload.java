package dev.pipelininglab.run;

import java.time.Duration;

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
 * @param rate offered load in commands per second over all clients, or 0 for as fast as
 * the run goes
 * @param duration the longest a timed pass may send for: it ends then or after its
 * {@code count} commands, whichever comes first; null for no time limit
 * @param ratio mixed runs: how SET and GET interleave; ignored by other operations
 */
public record Workload(int valueSize, int requests, long maxBatchBytes, @Nullable Integer batchSizeAsked, int rate,
		@Nullable Duration duration, Ratio ratio) {

	/** Today's small values, one request, and no byte budget that could bite. */
	public static final Workload PLAIN = new Workload(0, 1, Long.MAX_VALUE, null, 0, null, Ratio.DEFAULT);

	public Workload {
		if (valueSize < 0 || requests < 1 || maxBatchBytes < 1 || rate < 0) {
			throw new IllegalArgumentException(
					"valueSize and rate must not be negative, requests and maxBatchBytes positive");
		}
	}

	public static Workload of(int valueSize, int requests, long maxBatchBytes) {
		return new Workload(valueSize, requests, maxBatchBytes, null, 0, null, Ratio.DEFAULT);
	}

	/** The same, paced at {@code rate} commands per second (0: unpaced). */
	public Workload withRate(int rate) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, rate, this.duration,
				this.ratio);
	}

	/**
	 * The same, each timed pass ending after {@code limit} at the latest (null: none).
	 */
	public Workload withDuration(@Nullable Duration limit) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, this.rate, limit,
				this.ratio);
	}

	/** The same, mixing SET and GET as {@code ratio} says (mixed runs only). */
	public Workload withRatio(Ratio ratio) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, this.rate,
				this.duration, ratio);
	}

	/** The largest batch whose values fit the byte budget. */
	int batchSizeLimit() {
		return (this.valueSize == 0) ? Integer.MAX_VALUE
				: (int) Math.max(1, Math.min(Integer.MAX_VALUE, this.maxBatchBytes / this.valueSize));
	}

	Workload shrunkFrom(int batchSize) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, batchSize, this.rate, this.duration,
				this.ratio);
	}

	Workload unshrunk() {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, null, this.rate, this.duration,
				this.ratio);
	}

	/**
	 * For untimed passes (warm-ups, set-up): one request, as fast as it goes, with no
	 * time limit.
	 */
	Workload single() {
		return new Workload(this.valueSize, 1, this.maxBatchBytes, null, 0, null, this.ratio);
	}

}
