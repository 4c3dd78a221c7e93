package dev.pipelininglab.run;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The reference point pipelining is measured against: one multi-key or multi-argument
 * command per batch, so the server parses one command instead of thousands.
 */
@Component
class MultiKeyRunner extends BatchRunner {

	MultiKeyRunner() {
		super(Mode.MULTI_KEY);
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

	static @Nullable String name(Command command) {
		return (command instanceof Command.MultiKey multiKey) ? multiKey.multiKeyName() : null;
	}

	/** Jedis on a cluster sends one command per key when an MSET or MGET spans slots. */
	static Set<String> commandNames(Command command) {
		String multiKey = name(command);
		String own = command.name().toLowerCase(Locale.ROOT);
		return (multiKey != null) ? Set.of(multiKey.toLowerCase(Locale.ROOT), own) : Set.of(own);
	}

	/**
	 * Spring Data Redis 4.1 leaves MSET and MGET to Lettuce, which splits them by slot.
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
		return new ClusterEffect(commands, String.format(Locale.ROOT,
				"Keys in different hash slots cannot go in one %1$s (CROSSSLOT), so Lettuce split each %1$s of up to"
						+ " %2$d keys into one %1$s per slot: %3$d %1$ss instead of %4$d for %5$d keys (%6$.2f keys"
						+ " each), over the slots of %7$d masters, written back to back and awaited together. Spring"
						+ " Data Redis passed the call to Lettuce unchanged. For one command per batch, the keys need a"
						+ " common hash tag (variant multi-key-hashtag).",
				command, spec.batchSize(), commands, batches, spec.count(), (double) spec.count() / commands,
				spread.mastersUsed()));
	}

	/**
	 * {@code RPOP key count} on an empty list answers nil: the missing are empty pops.
	 */
	static void countAll(@Nullable List<?> replies, long asked, Tally tally) {
		long seen = 0;
		if (replies != null) {
			for (Object reply : replies) {
				seen++;
				tally.reply(Command.text(reply));
			}
		}
		for (long i = seen; i < asked; i++) {
			tally.nil();
		}
	}

}
