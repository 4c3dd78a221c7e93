package dev.pipelininglab.run;

import dev.pipelininglab.redis.Topology;

/**
 * How one mode sends a batch of commands. Everything else (batching, timing, warm-up, repeats, verification,
 * the result) is shared in {@link RunService}, so a new mode is one small class.
 */
interface BatchRunner {

	Mode mode();

	/** @return null when the mode can run the operation on this topology, else why not */
	String unsupported(RunSpec spec, Topology topology);

	/** Commands (or keys) that share one round trip when batches are {@code batchSize} long, for reporting. */
	int perRoundTrip(int batchSize);

	/** Sends the commands for items {@code from} (inclusive) to {@code to} (exclusive) and tallies the replies. */
	void run(Pass pass, long from, long to, Tally tally);

}
