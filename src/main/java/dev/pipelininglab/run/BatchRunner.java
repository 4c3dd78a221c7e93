package dev.pipelininglab.run;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

/**
 * How one mode sends a batch of commands. Everything else (batching, timing, warm-up,
 * repeats, verification, the result) is shared in {@link RunService}, so a new mode is
 * one small class.
 */
interface BatchRunner {

	Mode mode();

	/**
	 * @return null when the mode can run the operation on this topology, else why not
	 */
	default @Nullable String unsupported(RunSpec spec, Topology topology) {
		return null;
	}

	/**
	 * Commands (or keys) that share one round trip when batches are {@code batchSize}
	 * long, for reporting: the whole batch for every mode but the loop.
	 */
	default int perRoundTrip(int batchSize) {
		return batchSize;
	}

	/**
	 * Sends the commands for items {@code from} (inclusive) to {@code to} (exclusive) and
	 * tallies the replies.
	 */
	void run(Pass pass, long from, long to, Tally tally);

	/**
	 * Sends every item of the pass, batch after batch, for untimed passes (warm-ups,
	 * set-up).
	 */
	default void runAll(Pass pass, Tally tally) {
		long count = pass.spec().count();
		int batchSize = pass.spec().batchSize();
		for (long from = 0; from < count; from += batchSize) {
			run(pass, from, Math.min(count, from + batchSize), tally);
		}
	}

	/**
	 * The keys this mode works on, given the demo keys: the same ones, unless a different
	 * layout is the point.
	 */
	default KeySpace keySpace(KeySpace demo) {
		return demo;
	}

	/**
	 * What a cluster does to this mode's commands beyond spreading the keys; null when
	 * nothing worth telling.
	 */
	default @Nullable ClusterEffect onCluster(RunSpec spec, ClusterLayout.Spread spread) {
		return null;
	}

	/**
	 * @param commands Redis commands sent per pass
	 * @param note the same in words
	 */
	record ClusterEffect(long commands, String note) {
	}

}
