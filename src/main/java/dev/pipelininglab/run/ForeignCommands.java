package dev.pipelininglab.run;

import dev.pipelininglab.redis.ServerCounters;
import org.jspecify.annotations.Nullable;

/**
 * Commands the servers processed during a timed pass that the run did not send: another
 * client on the same Redis makes the figures measure it too. A quiet Redis' own traffic
 * (the lab's INFO around the pass, job progress records, sentinels, REPLCONF ACK,
 * Lettuce's topology refresh, health probes) stays well under
 * {@value #PER_NODE_PER_SECOND} a second on any node, and a client below that is a
 * trickle that would not move the figures beyond the spread between passes.
 */
final class ForeignCommands {

	static final long PER_NODE = 50;

	static final long PER_NODE_PER_SECOND = 100;

	private ForeignCommands() {
	}

	/**
	 * @param sent inner commands of a script included
	 * @param windowNanos from the first INFO read to the last
	 * @return the commands beyond {@code sent}, or null within what is allowed
	 */
	static @Nullable Long beyondBookkeeping(ServerCounters.@Nullable Processed processed, long sent, long windowNanos) {
		if (processed == null) {
			return null;
		}
		long excess = processed.commands() - sent;
		double allowed = processed.nodes() * (PER_NODE + PER_NODE_PER_SECOND * windowNanos / 1e9);
		return (excess > allowed) ? excess : null;
	}

}
