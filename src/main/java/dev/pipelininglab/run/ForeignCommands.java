package dev.pipelininglab.run;

import dev.pipelininglab.redis.ServerCounters;
import org.jspecify.annotations.Nullable;

/**
 * Commands the servers processed during a timed pass that the run did not send: another
 * client hammering the same Redis makes the figures measure it too. Some traffic is
 * always there and is not worth a warning, so only what goes beyond it counts.
 * <p>
 * What a quiet Redis processes beside a run is periodic: the lab's own INFO and CLIENT
 * INFO around the pass (up to 3 per node), a job's progress record every 200 ms and each
 * open progress stream's read of it, sentinels' PING, PUBLISH and INFO (about 1.6 a
 * second each), replicas' REPLCONF ACK (1 a second each), Lettuce's cluster topology
 * refresh (CLUSTER NODES and INFO on every node each second, per client), health probes.
 * That is well under {@value #PER_NODE_PER_SECOND} commands a second on any node, so a
 * pass is flagged when the excess is above {@value #PER_NODE} plus
 * {@value #PER_NODE_PER_SECOND} a second per node counted. Below that, another client is
 * a trickle next to the run (a loop alone sends thousands a second) and would not move
 * its figures beyond the spread between passes.
 */
final class ForeignCommands {

	/** Commands any node may process around a pass, whatever its length. */
	static final long PER_NODE = 50;

	/** Commands a second any node may process beside the run. */
	static final long PER_NODE_PER_SECOND = 100;

	private ForeignCommands() {
	}

	/**
	 * @param processed what the nodes the run's commands reach processed during the pass
	 * @param sent the commands the pass sent (inner commands of a script included)
	 * @param windowNanos from the first INFO read to the last
	 * @return the commands beyond {@code sent} when they exceed the bookkeeping allowed
	 * for the pass, else null
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
