package dev.pipelininglab.run;

/**
 * How one mode sends a batch of commands. Everything else (batching, timing, warm-up, verification, the
 * result) is shared in {@link RunService}, so a new mode is one small class.
 */
interface BatchRunner {

	Mode mode();

	boolean supports(Operation operation);

	/** Commands (or keys) that share one round trip when batches are {@code batchSize} long, for reporting. */
	int perRoundTrip(int batchSize);

	/** Makes sure the connection this mode uses is open, so the timed part never pays for connecting. */
	void warmUp();

	/** Sends the commands for items {@code from} (inclusive) to {@code to} (exclusive) and tallies the replies. */
	void run(RunSpec spec, long from, long to, Tally tally);

}
