package dev.pipelininglab.run;

import java.util.List;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The reference point pipelining is measured against: one multi-key or multi-argument
 * command per batch (MSET, MGET, {@code RPOP key count} on Redis 6.2+, HMSET, SADD, ZADD
 * and LPUSH with one argument group per item), so the server parses one command instead
 * of thousands.
 */
@Component
class MultiKeyRunner implements BatchRunner {

	@Override
	public Mode mode() {
		return Mode.MULTI_KEY;
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		if (!(spec.operation().command() instanceof Command.MultiKey multiKey)) {
			return spec.operation().lacks(Mode.MULTI_KEY);
		}
		return (spec.ttl() != null) ? multiKey.multiKeyName() + " cannot set an expiry" : null;
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		((Command.MultiKey) pass.command()).multiKey(pass.route().template(), pass, from, to, tally);
	}

	/** The multi-key command a cluster splits by slot (MSET, MGET), or null. */
	static @Nullable String name(Command command) {
		return (command instanceof Command.MultiKey multiKey) ? multiKey.multiKeyName() : null;
	}

	/**
	 * The commands the variant makes the servers count: its own, and what a client sends
	 * instead when it splits the batch (Jedis on a cluster sends one command per key when
	 * the keys of an MSET or MGET span slots).
	 */
	static java.util.Set<String> commandNames(Command command) {
		String multiKey = name(command);
		return (multiKey != null) ? java.util.Set.of(multiKey.toLowerCase(java.util.Locale.ROOT), command.label())
				: java.util.Set.of(command.label());
	}

	/** The values of items {@code from} to {@code to}, as one command's arguments. */
	static byte[][] values(Pass pass, long from, long to) {
		byte[][] values = new byte[(int) (to - from)][];
		for (int i = 0; i < values.length; i++) {
			values[i] = pass.valueBytes(from + i);
		}
		return values;
	}

	/**
	 * Redis refuses a multi-key command whose keys are in different hash slots
	 * (CROSSSLOT). Spring Data Redis 4.1 passes MSET and MGET to Lettuce unchanged on a
	 * cluster, and Lettuce's cluster API splits them: one command per slot, all written
	 * without waiting in between (to the right masters) and awaited together, MGET's
	 * values put back in key order. Demo keys spread over all slots, so a batch of 10,000
	 * becomes about 7,500 commands.
	 */
	@Override
	public @Nullable ClusterEffect onCluster(RunSpec spec, ClusterLayout.Spread spread) {
		String command = name(spec.operation().command());
		if (command == null) {
			return null;
		}
		long batches = spec.batches();
		long commands = spread.commandsPerSlot();
		if (commands == batches) {
			return new ClusterEffect(commands, "The keys of each batch share one hash slot, so each " + command
					+ " went whole to its master: " + commands + " " + command + (commands == 1 ? "" : "s") + ".");
		}
		return new ClusterEffect(commands, String.format(java.util.Locale.ROOT,
				"Keys in different hash slots cannot go in one %1$s (CROSSSLOT), so Lettuce split each %1$s of up to"
						+ " %2$d keys into one %1$s per slot: %3$d %1$ss instead of %4$d for %5$d keys (%6$.2f keys"
						+ " each), over the slots of %7$d masters, written back to back and awaited together. Spring"
						+ " Data Redis passed the call to Lettuce unchanged. For one command per batch, the keys need a"
						+ " common hash tag (variant multi-key-hashtag).",
				command, spec.batchSize(), commands, batches, spec.count(), (double) spec.count() / commands,
				spread.mastersUsed()));
	}

	/**
	 * An empty list answers RPOP with count with nil, so missing elements are counted as
	 * empty pops.
	 */
	static void countAll(@Nullable List<?> replies, long asked, Tally tally) {
		long seen = 0;
		if (replies != null) {
			for (Object reply : replies) {
				seen++;
				tally.reply(reply);
			}
		}
		for (long i = seen; i < asked; i++) {
			tally.nil();
		}
	}

}
