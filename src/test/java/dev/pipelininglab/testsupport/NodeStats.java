package dev.pipelininglab.testsupport;

import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.pipelininglab.localredis.RedisServerProcess;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.SafeEncoder;

/**
 * What one server has done, asked of it directly (not through a cluster or sentinel
 * client), for tests that check where commands went.
 */
public final class NodeStats {

	private NodeStats() {
	}

	/**
	 * How many times {@code node} executed {@code command} (from
	 * {@code INFO commandstats}), 0 if never. Counts commands a replica applies from its
	 * master's replication stream too.
	 */
	public static long calls(RedisServerProcess node, String command) {
		Map<String, String> stats = Topologies.on(node, (jedis) -> Topologies.info(jedis, "commandstats"));
		String line = stats.get("cmdstat_" + command.toLowerCase(Locale.ROOT));
		if (line == null) {
			return 0;
		}
		for (String field : line.split(",")) {
			if (field.startsWith("calls=")) {
				return Long.parseLong(field.substring("calls=".length()));
			}
		}
		return 0;
	}

	/** Every command {@code node} has executed and how often, by name in lower case. */
	public static Map<String, Long> allCalls(RedisServerProcess node) {
		Map<String, String> stats = Topologies.on(node, (jedis) -> Topologies.info(jedis, "commandstats"));
		Map<String, Long> calls = new java.util.TreeMap<>();
		stats.forEach((name, line) -> {
			for (String field : line.split(",")) {
				if (name.startsWith("cmdstat_") && field.startsWith("calls=")) {
					calls.put(name.substring("cmdstat_".length()), Long.parseLong(field.substring("calls=".length())));
				}
			}
		});
		return calls;
	}

	/**
	 * A counter of {@code INFO <section>} on {@code node}, such as {@code keyspace_hits}
	 * in {@code stats}; 0 when absent.
	 */
	public static long counter(RedisServerProcess node, String section, String field) {
		Map<String, String> info = Topologies.on(node, (jedis) -> Topologies.info(jedis, section));
		return Long.parseLong(info.getOrDefault(field, "0"));
	}

	/**
	 * The commands a clean-up sends, EXPIRE, UNLINK and DEL, as {@code node} counted
	 * them: what a stopped run may cost a shared Redis after it stopped.
	 */
	public static long cleanupCalls(RedisServerProcess node) {
		return calls(node, "EXPIRE") + calls(node, "UNLINK") + calls(node, "DEL");
	}

	/** How many keys {@code node} holds ({@code DBSIZE}). */
	public static long keys(RedisServerProcess node) {
		return Topologies.on(node, (jedis) -> jedis.dbSize());
	}

	/** Sum of {@link #calls} over {@code nodes}. */
	public static long calls(List<RedisServerProcess> nodes, String command) {
		return nodes.stream().mapToLong((node) -> calls(node, command)).sum();
	}

	/** The hash slots {@code node} serves, as it says itself ({@code CLUSTER SLOTS}). */
	public static BitSet slots(RedisServerProcess node) {
		BitSet served = new BitSet(16_384);
		for (Object range : Topologies.on(node, Jedis::clusterSlots)) {
			List<?> slots = (List<?>) range;
			List<?> owner = (List<?>) slots.get(2);
			if (((Number) owner.get(1)).intValue() == node.port()) {
				served.set(((Number) slots.get(0)).intValue(), ((Number) slots.get(1)).intValue() + 1);
			}
		}
		return served;
	}

	/**
	 * The master ({@code host:port}) serving {@code slot} as {@code node} sees it, or
	 * {@code "none"}.
	 */
	public static String owner(RedisServerProcess node, int slot) {
		for (Object range : Topologies.on(node, Jedis::clusterSlots)) {
			List<?> slots = (List<?>) range;
			if (((Number) slots.get(0)).intValue() <= slot && slot <= ((Number) slots.get(1)).intValue()) {
				List<?> owner = (List<?>) slots.get(2);
				return SafeEncoder.encode((byte[]) owner.get(0)) + ":" + owner.get(1);
			}
		}
		return "none";
	}

	/** {@code used_memory} of {@code node}, from INFO memory. */
	public static long usedMemory(RedisServerProcess node) {
		return Long.parseLong(Topologies.on(node, (jedis) -> Topologies.info(jedis, "memory")).get("used_memory"));
	}

	/** {@code keyspace_hits} of {@code node}, from INFO stats: GETs that found a key. */
	public static long keyspaceHits(RedisServerProcess node) {
		return stat(node, "keyspace_hits");
	}

	/** {@code keyspace_misses} of {@code node}, from INFO stats: GETs that found none. */
	public static long keyspaceMisses(RedisServerProcess node) {
		return stat(node, "keyspace_misses");
	}

	private static long stat(RedisServerProcess node, String field) {
		return Long.parseLong(Topologies.on(node, (jedis) -> Topologies.info(jedis, "stats")).get(field));
	}

	/** Keys in {@code node}'s database 0, the lab's run records aside. */
	public static long dbsize(RedisServerProcess node) {
		// One read: a record written after a run's answer lands between two.
		return Topologies.on(node, (jedis) -> jedis.keys("*").stream().filter((key) -> !isRunRecord(key)).count());
	}

	/**
	 * The lab's run records ({@code <prefix>:run:<id>}, the index {@code <prefix>:runs}):
	 * every run that started leaves its record, GET runs too, beside the keys it wrote.
	 */
	public static boolean isRunRecord(String key) {
		return key.matches(".*:runs?(:.*)?");
	}

}
