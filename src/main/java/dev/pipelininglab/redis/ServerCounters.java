package dev.pipelininglab.redis;

import java.lang.module.ModuleDescriptor.Version;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.types.RedisClientInfo;
import org.springframework.stereotype.Component;

/**
 * Redis {@code INFO} of every node a run may use, read around a timed pass, and the
 * connections the pass really used, from {@code CLIENT LIST}: {@code idle} counts whole
 * seconds, so a pass may start in a new server second.
 */
@Component
public class ServerCounters implements DisposableBean {

	public static final String SCOPE = "server-wide INFO deltas around the timed pass; other clients' commands and"
			+ " the INFO calls themselves count too; totals sum the masters (and the replicas a read-only run reads"
			+ " from), nodes lists every node; evictedKeys, expiredKeys and usedMemoryBytes span the whole run, from"
			+ " before its first write to its verification, summed over the masters";

	public static final String COUNTED_BY = "CLIENT LIST on every master after the pass: connections named for the"
			+ " run's route whose last command is one the run sends and came in during the pass (whole server"
			+ " seconds; the pass starts in a new second only when the route holds more such connections used in the"
			+ " current second than its clients need)";

	private static final Logger log = LoggerFactory.getLogger(ServerCounters.class);

	private final NodeInfo info;

	private final boolean replicaReads;

	private final Reconnects reconnects;

	private volatile @Nullable Version oldest;

	ServerCounters(LettuceConnectionFactory factory, Reconnects reconnects) {
		this.reconnects = reconnects;
		this.replicaReads = NodeConnections.readsFromReplicas(factory);
		this.info = new NodeInfo(factory, this.replicaReads);
	}

	/** What could be read: a node that fails is left out. */
	public Snapshot snapshot() {
		return this.info.take(false);
	}

	/** Every master's, or a failure: what the memory preflight stands on. */
	public Snapshot read() {
		try {
			return this.reconnects.awaiting(() -> this.info.take(true));
		}
		catch (RuntimeException ex) {
			// Spring's translation passes a DataAccessException through as it is.
			throw RedisReplies.translatedOr(ex,
					(other) -> new RedisSystemException("INFO could not be read: " + other.getMessage(), other));
		}
	}

	/** Whether every node runs {@code version} or later, as INFO said once. */
	public boolean atLeast(String version) {
		Version oldest = this.oldest;
		if (oldest == null) {
			oldest = snapshot().nodes()
				.values()
				.stream()
				.map((info) -> Version.parse(info.getOrDefault("redis_version", "0")))
				.min(Comparator.naturalOrder())
				.orElse(null);
			this.oldest = oldest;
		}
		return oldest != null && oldest.compareTo(Version.parse(version)) >= 0;
	}

	public @Nullable ServerStats between(Snapshot before, Snapshot after, boolean replicasServe) {
		Map<String, ServerStats> nodes = deltas(before, after);
		if (nodes.isEmpty()) {
			return null;
		}
		Map<String, ServerStats> serving = serving(nodes, after, replicasServe);
		return ServerStats.total(nodes, serving.isEmpty() ? nodes : serving);
	}

	// Replicas only replay their master's writes, unless a read-only run reads from them.
	private Map<String, ServerStats> serving(Map<String, ServerStats> nodes, Snapshot after, boolean replicasServe) {
		Map<String, ServerStats> serving = new TreeMap<>(nodes);
		serving.keySet().removeIf((address) -> {
			Map<String, String> node = after.nodes().get(address);
			return node != null && "slave".equals(node.get("role")) && !(replicasServe && this.replicaReads);
		});
		return serving;
	}

	private static Map<String, ServerStats> deltas(Snapshot before, Snapshot after) {
		Map<String, ServerStats> nodes = new TreeMap<>();
		for (Map.Entry<String, Map<String, String>> node : after.nodes().entrySet()) {
			Map<String, String> earlier = before.nodes().get(node.getKey());
			if (earlier != null) {
				nodes.put(node.getKey(), ServerStats.delta(earlier, node.getValue()));
			}
		}
		return nodes;
	}

	public static Map<String, Double> cpuSeconds(Snapshot before, Snapshot after) {
		Map<String, Double> nodes = new TreeMap<>();
		after.nodes().forEach((address, info) -> {
			Map<String, String> earlier = before.nodes().get(address);
			Double now = ServerStats.cpuSeconds(info);
			Double then = (earlier != null) ? ServerStats.cpuSeconds(earlier) : null;
			if (now != null && then != null) {
				nodes.put(address, now - then);
			}
		});
		return nodes;
	}

	public @Nullable Processed processed(Snapshot before, Snapshot after, boolean replicasServe) {
		Map<String, ServerStats> serving = serving(deltas(before, after), after, replicasServe);
		return serving.isEmpty() ? null
				: new Processed(serving.values().stream().mapToLong(ServerStats::commands).sum(), serving.size());
	}

	public record Processed(long commands, int nodes) {
	}

	public @Nullable ClientList clientsBefore(Route route, Set<String> commands, int clients) {
		ClientList before = this.info.clientList(false);
		// Only a connection used in this server second could pass for one the pass used:
		// idle counts whole seconds. A comparison's passes met others idle for seconds
		// on every pass, and waited half a second each for nothing.
		if (before == null || candidates(before, route.clientName(), commands).filter((client) -> idle(client) == 0)
			.count() <= (long) clients * perClient(before)) {
			return before;
		}
		long micros = before.serverMicros() % 1_000_000L;
		log.debug(
				"Waiting into the server's next second: a master holds more connections of route {} used in this"
						+ " second than the run's {} clients: {}",
				route.clientName(), clients, candidates(before, route.clientName(), commands).toList());
		try {
			Thread.sleep((1_000_000L - micros) / 1000 + 5);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return before;
		}
		return this.info.clientList(false);
	}

	/**
	 * {@code passBefore}, {@code passAfter}: the INFO snapshots around the pass, whose
	 * masters count the connections they accepted.
	 */
	public @Nullable Usage usage(@Nullable ClientList before, Snapshot passBefore, Snapshot passAfter, Route route,
			Set<String> commands) {
		ClientList after = this.info.clientList(true);
		if (before == null || after == null) {
			return null;
		}
		return new Usage(used(before, after, route.clientName(), commands),
				connectionsReceived(passAfter) - connectionsReceived(passBefore));
	}

	/**
	 * The route's connections whose last command is the run's and came in between the
	 * lists: its idle seconds are at most the whole seconds from the clock read before
	 * the first list to the clock read after the second (read before it, a list read
	 * across a second's turn saw the pass's connections a second idle against a bound of
	 * zero).
	 */
	static int used(ClientList before, ClientList after, @Nullable String clientName, Set<String> commands) {
		long idleBound = after.serverMicros() / 1_000_000L - before.serverMicros() / 1_000_000L;
		return (int) candidates(after, clientName, commands).filter((client) -> idle(client) <= idleBound).count();
	}

	private static long connectionsReceived(Snapshot snapshot) {
		return snapshot.nodes()
			.values()
			.stream()
			.filter((node) -> "master".equals(node.get("role")))
			.mapToLong((node) -> Long.parseLong(node.getOrDefault("total_connections_received", "0")))
			.sum();
	}

	// A cluster client holds one connection per master plus the default one, which is not
	// a grown pool.
	private static int perClient(ClientList list) {
		return (list.masters() > 1) ? list.masters() + 1 : 1;
	}

	private static Stream<RedisClientInfo> candidates(ClientList list, @Nullable String clientName,
			Set<String> commands) {
		String name = (clientName != null) ? clientName : "";
		return list.clients()
			.stream()
			.filter((client) -> name.equals(Objects.requireNonNullElse(client.getName(), ""))
					&& commands.contains(Objects.requireNonNullElse(client.getLastCommand(), "")));
	}

	private static long idle(RedisClientInfo client) {
		return Objects.requireNonNullElse(client.getIdle(), Long.MAX_VALUE);
	}

	@Override
	public void destroy() {
		this.info.close();
	}

	public record Snapshot(Map<String, Map<String, String>> nodes) {
	}

	/**
	 * {@code serverMicros}: the server's clock before the lists were read, or after them
	 * for the list after a pass.
	 */
	public record ClientList(List<RedisClientInfo> clients, long serverMicros, int masters) {
	}

	public record Usage(int used, long opened) {
	}

}
