package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.zset.Tuple;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
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
	public String unsupported(RunSpec spec, Topology topology) {
		return switch (spec.operation()) {
			case SET -> (spec.ttl() != null) ? "MSET cannot set an expiry" : null;
			case GET, RPOP, HSET, SADD, ZADD, LPUSH -> null;
			case PING -> "PING has no multi-key form";
			case RPUSH -> "the lab fills lists with pipelined RPUSH only (LPUSH has a multi-argument form)";
			case INCR -> "INCR has no multi-argument form (INCRBY would add the batch in one command, which is"
					+ " different work)";
		};
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		StringRedisTemplate template = pass.route().template();
		KeySpace keys = pass.keys();
		switch (pass.operation()) {
			case SET -> {
				Map<String, String> entries = new LinkedHashMap<>();
				for (long i = from; i < to; i++) {
					entries.put(keys.key(i), pass.value(i));
				}
				template.opsForValue().multiSet(entries);
				for (long i = from; i < to; i++) {
					tally.value(null);
				}
			}
			case GET -> {
				List<String> batch = new ArrayList<>((int) (to - from));
				for (long i = from; i < to; i++) {
					batch.add(keys.key(i));
				}
				countAll(template.opsForValue().multiGet(batch), to - from, tally);
			}
			case RPOP -> countAll(template.opsForList().rightPop(keys.listKey(), to - from), to - from, tally);
			case HSET, SADD, ZADD, LPUSH -> {
				template.execute((RedisCallback<Object>) (connection) -> multiArgument(connection, pass, from, to));
				for (long i = from; i < to; i++) {
					tally.value(null);
				}
			}
			default -> throw new IllegalStateException(unsupported(pass.spec(), null));
		}
	}

	/** One command whose arguments carry the whole batch: one batch of values held. */
	private static @Nullable Object multiArgument(RedisConnection connection, Pass pass, long from, long to) {
		byte[] key = pass.keyBytes();
		int size = (int) (to - from);
		switch (pass.operation()) {
			case HSET -> {
				Map<byte[], byte[]> fields = new LinkedHashMap<>(size * 2);
				for (long i = from; i < to; i++) {
					fields.put(pass.keys().fieldBytes(i), pass.valueBytes(i));
				}
				connection.hashCommands().hMSet(key, fields);
			}
			case ZADD -> {
				Set<Tuple> members = new LinkedHashSet<>(size * 2);
				for (long i = from; i < to; i++) {
					members.add(Tuple.of(pass.valueBytes(i), (double) i));
				}
				connection.zSetCommands().zAdd(key, members);
			}
			case SADD, LPUSH -> {
				byte[][] values = new byte[size][];
				for (int i = 0; i < size; i++) {
					values[i] = pass.valueBytes(from + i);
				}
				if (pass.operation() == Operation.SADD) {
					connection.setCommands().sAdd(key, values);
				}
				else {
					connection.listCommands().lPush(key, values);
				}
			}
			default -> throw new IllegalStateException(pass.operation() + " has no multi-argument form here");
		}
		return null;
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
		if (spec.operation() != Operation.SET && spec.operation() != Operation.GET) {
			return null;
		}
		String command = (spec.operation() == Operation.SET) ? "MSET" : "MGET";
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
	static void countAll(List<?> replies, long asked, Tally tally) {
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
