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
 * @param keyWalk how items map to keys, or null for item {@code i} on key {@code i}
 * @param first the run's first item: 0, or where a fleet member's share of the items
 * starts, so its items, keys and values are those of the same items in one whole run
 */
public record Workload(int valueSize, int requests, long maxBatchBytes, @Nullable Integer batchSizeAsked, int rate,
		@Nullable Duration duration, Ratio ratio, @Nullable KeyWalk keyWalk, long first) {

	/** Today's small values, one request, and no byte budget that could bite. */
	public static final Workload PLAIN = new Workload(0, 1, Long.MAX_VALUE, null, 0, null, Ratio.DEFAULT, null, 0);

	public Workload {
		if (valueSize < 0 || requests < 1 || maxBatchBytes < 1 || rate < 0) {
			throw new IllegalArgumentException(
					"valueSize and rate must not be negative, requests and maxBatchBytes positive");
		}
	}

	public static Workload of(int valueSize, int requests, long maxBatchBytes) {
		return new Workload(valueSize, requests, maxBatchBytes, null, 0, null, Ratio.DEFAULT, null, 0);
	}

	/** The same, paced at {@code rate} commands per second (0: unpaced). */
	public Workload withRate(int rate) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, rate, this.duration,
				this.ratio, this.keyWalk, this.first);
	}

	/**
	 * The same, each timed pass ending after {@code limit} at the latest (null: none).
	 */
	public Workload withDuration(@Nullable Duration limit) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, this.rate, limit,
				this.ratio, this.keyWalk, this.first);
	}

	/** The same, mixing SET and GET as {@code ratio} says (mixed runs only). */
	public Workload withRatio(Ratio ratio) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, this.rate,
				this.duration, ratio, this.keyWalk, this.first);
	}

	/** The same, walking the key space as {@code walk} says (null: item i on key i). */
	public Workload withKeyWalk(@Nullable KeyWalk walk) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, this.rate,
				this.duration, this.ratio, walk, this.first);
	}

	/** The same, its items starting at {@code item} (a fleet member's share). */
	public Workload withFirst(long item) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, this.batchSizeAsked, this.rate,
				this.duration, this.ratio, this.keyWalk, item);
	}

	/** The largest batch whose values fit the byte budget. */
	int batchSizeLimit() {
		return (this.valueSize == 0) ? Integer.MAX_VALUE
				: (int) Math.max(1, Math.min(Integer.MAX_VALUE, this.maxBatchBytes / this.valueSize));
	}

	Workload shrunkFrom(int batchSize) {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, batchSize, this.rate, this.duration,
				this.ratio, this.keyWalk, this.first);
	}

	Workload unshrunk() {
		return new Workload(this.valueSize, this.requests, this.maxBatchBytes, null, this.rate, this.duration,
				this.ratio, this.keyWalk, this.first);
	}

	/**
	 * For untimed passes (warm-ups, set-up): one request, as fast as it goes, with no
	 * time limit, item {@code i} on key {@code i} so their keys stay the few they clean
	 * up.
	 */
	Workload single() {
		return new Workload(this.valueSize, 1, this.maxBatchBytes, null, 0, null, this.ratio, null, 0);
	}

	/** The key index item {@code item} works on. */
	long keyIndex(long item) {
		return (this.keyWalk != null) ? this.keyWalk.index(item) : item;
	}

	/**
	 * The key indexes a run of {@code count} items may touch lie below this: the key
	 * space of a walk, else the items' own. What is prepared and expired is the keys the
	 * items reach ({@link Written}), not this range.
	 */
	long keyRange(long count) {
		return (this.keyWalk != null) ? this.keyWalk.size() : count;
	}

	/**
	 * Most distinct keys a run of {@code count} items writes: what the memory preflight
	 * counts.
	 */
	long distinctKeys(long count) {
		return Math.min(count, keyRange(count));
	}

}
