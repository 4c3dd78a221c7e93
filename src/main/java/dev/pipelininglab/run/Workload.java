package dev.pipelininglab.run;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * What each item of a run carries and how the run is paced, limited and repeated, beyond
 * the command itself (the request parameters: docs/api.md).
 *
 * @param valueSize bytes per value, or 0 for the plain {@code value-<i>}
 * @param requests fan-out: the whole run sent this many times, as an API handler does
 * once per incoming request
 * @param batchSizeAsked the batch size asked for, when {@code maxBatchBytes} shrank it
 * @param rate commands per second over all clients, or 0 for as fast as it goes
 * @param duration null for no time limit
 * @param keyWalk null for item {@code i} on key {@code i}
 * @param first the first item: 0, or where a fleet member's share starts, so its keys and
 * values are those of the same items in one whole run
 */
public record Workload(int valueSize, int requests, long maxBatchBytes, @Nullable Integer batchSizeAsked, int rate,
		@Nullable Duration duration, Ratio ratio, @Nullable KeyWalk keyWalk, long first) {

	public Workload {
		if (valueSize < 0 || requests < 1 || maxBatchBytes < 1 || rate < 0) {
			throw new IllegalArgumentException(
					"valueSize and rate must not be negative, requests and maxBatchBytes positive");
		}
	}

	public static Workload of(int valueSize, int requests, long maxBatchBytes) {
		return new Workload(valueSize, requests, maxBatchBytes, null, 0, null, Ratio.DEFAULT, null, 0);
	}

	/** The same, its items starting at {@code item} (a fleet member's share). */
	public Workload withFirst(long item) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, this.rate,
				this.duration, this.ratio, this.keyWalk, item);
	}

	int batchSizeLimit() {
		return (this.valueSize == 0) ? Integer.MAX_VALUE
				: (int) Math.max(1, Math.min(Integer.MAX_VALUE, this.maxBatchBytes / this.valueSize));
	}

	/** The same, ending at {@code limit} (null for no time limit). */
	Workload withDuration(@Nullable Duration limit) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, this.rate, limit,
				this.ratio, this.keyWalk, this.first);
	}

	/** Null when the batch size asked for was not shrunk. */
	Workload withBatchSizeAsked(@Nullable Integer batchSize) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, batchSize, this.rate, this.duration,
				this.ratio, this.keyWalk, this.first);
	}

	/** Untimed passes put item {@code i} on key {@code i}: few keys to clean up. */
	Workload single() {
		return new Workload(this.valueSize, 1, this.maxBatchBytes, null, 0, null, this.ratio, null, 0);
	}

	long keyIndex(long item) {
		return (this.keyWalk != null) ? this.keyWalk.index(item) : item;
	}

	/** The most distinct keys {@code count} items write, for the memory preflight. */
	long distinctKeys(long count) {
		return (this.keyWalk != null) ? Math.min(count, this.keyWalk.size()) : count;
	}

}
