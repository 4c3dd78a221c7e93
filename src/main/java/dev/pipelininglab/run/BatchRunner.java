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
abstract class BatchRunner {

	private final Mode mode;

	BatchRunner(Mode mode) {
		this.mode = mode;
	}

	final Mode mode() {
		return this.mode;
	}

	/** Null when the mode can run the operation on this topology, else why not. */
	@Nullable String unsupported(RunSpec spec, Topology topology) {
		return null;
	}

	/** Commands (or keys) that share one round trip, for reporting. */
	int perRoundTrip(int batchSize) {
		return batchSize;
	}

	/** Sends items {@code from} to {@code to} (exclusive), tallying the replies. */
	abstract void run(Pass pass, long from, long to, Tally tally);

	/** The demo keys, unless a different layout is the point. */
	KeySpace keySpace(KeySpace demo) {
		return demo;
	}

	/** What a cluster does to the commands beyond spreading the keys, or null. */
	@Nullable ClusterEffect onCluster(RunSpec spec, ClusterLayout.Spread spread) {
		return null;
	}

	/**
	 * {@code commands}: Redis commands sent per pass; {@code note}: the same in words.
	 */
	record ClusterEffect(long commands, String note) {
	}

	/**
	 * Another mode's commands on keys that share a hash tag
	 * ({@code <prefix>:{lab}:key:<i>}), so on a cluster they are all in one slot and go
	 * whole to its master; the price is that one master stores and serves every key.
	 */
	abstract static class HashTagged extends BatchRunner {

		private final BatchRunner untagged;

		HashTagged(Mode mode, BatchRunner untagged) {
			super(mode);
			this.untagged = untagged;
		}

		@Override
		public @Nullable String unsupported(RunSpec spec, Topology topology) {
			if (topology.kind() != Topology.Kind.CLUSTER) {
				return "hash tags only decide which cluster node holds a key; on " + topology.kind() + " this is the "
						+ this.untagged.mode().label() + " variant under other key names";
			}
			return this.untagged.unsupported(spec, topology);
		}

		@Override
		public void run(Pass pass, long from, long to, Tally tally) {
			this.untagged.run(pass, from, to, tally);
		}

		@Override
		public KeySpace keySpace(KeySpace demo) {
			return demo.hashTagged();
		}

	}

}
