package dev.pipelininglab.redis;

import java.lang.module.ModuleDescriptor.Version;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.pipelininglab.redis.lettuce.PrivateState;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ConnectionIntent;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
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

	private static final Pattern FIELD = Pattern.compile("(?m)^([a-z0-9_]+):([^\\r\\n]*)");

	private static final Pattern LOCAL_ADDRESS = Pattern.compile("laddr=(\\S+)");

	private static final Pattern REPLICA = Pattern.compile("(?m)^slave\\d+:ip=([^,]+),port=(\\d+),state=online");

	private static final Pattern CLIENT_FIELD = Pattern.compile("(\\w[\\w-]*)=(\\S*)");

	private final LettuceConnectionFactory factory;

	private final boolean replicaReads;

	private final NodeConnections.Own connection;

	private final Map<String, StatefulRedisConnection<String, String>> replicas = new LinkedHashMap<>();

	private @Nullable RedisClient replicaClient;

	private volatile @Nullable Version oldest;

	private final Reconnects reconnects;

	/** A standalone or sentinel master's address by its INFO run_id. */
	private final Map<String, String> addresses = new ConcurrentHashMap<>();

	ServerCounters(LettuceConnectionFactory factory, Reconnects reconnects) {
		this.factory = factory;
		this.reconnects = reconnects;
		this.connection = new NodeConnections.Own(factory);
		this.replicaReads = NodeConnections.readsFromReplicas(factory);
	}

	public Snapshot snapshot() {
		try {
			return take(false);
		}
		catch (RuntimeException ex) {
			return new Snapshot(new TreeMap<>());
		}
	}

	/** Every master's, or a failure: what the memory preflight stands on. */
	public Snapshot read() {
		try {
			return this.reconnects.awaiting(() -> take(true));
		}
		catch (RuntimeException ex) {
			// Spring's translation passes a DataAccessException through as it is.
			DataAccessException translated = RedisReplies.translated(ex);
			throw (translated != null) ? translated
					: new RedisSystemException("INFO could not be read: " + ex.getMessage(), ex);
		}
	}

	private synchronized Snapshot take(boolean strict) {
		Map<String, Map<String, String>> nodes = new TreeMap<>();
		try {
			StatefulConnection<String, String> connection = this.connection.get();
			if (connection instanceof StatefulRedisClusterConnection<String, String> cluster) {
				for (RedisClusterNode node : cluster.getPartitions()) {
					if (node.is(NodeFlag.FAIL) || node.is(NodeFlag.NOADDR)) {
						continue;
					}
					String host = node.getUri().getHost();
					int port = node.getUri().getPort();
					ConnectionIntent intent = node.is(NodeFlag.UPSTREAM) ? ConnectionIntent.WRITE
							: ConnectionIntent.READ;
					read(nodes, host + ":" + port, () -> cluster.getConnection(host, port, intent).sync().info(),
							strict && node.is(NodeFlag.UPSTREAM));
				}
			}
			else {
				StatefulRedisConnection<String, String> master = (StatefulRedisConnection<String, String>) connection;
				Map<String, String> fields = fields(master.sync().info());
				// A failover's new master has a run_id of its own: each is asked its
				// address once.
				nodes.put(this.addresses.computeIfAbsent(fields.getOrDefault("run_id", ""),
						(runId) -> address(master, fields)), fields);
				if (this.replicaReads) {
					Matcher online = REPLICA.matcher(master.sync().info("replication"));
					while (online.find()) {
						String address = online.group(1) + ":" + online.group(2);
						int port = Integer.parseInt(online.group(2));
						read(nodes, address, () -> replica(online.group(1), port).sync().info(), false);
					}
				}
			}
		}
		catch (RuntimeException ex) {
			log.debug("INFO could not be read: {}", ex.toString());
			if (strict && (timedOut(ex) || Reconnects.rejected(ex))) {
				throw ex;
			}
		}
		return new Snapshot(nodes);
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

	private static boolean timedOut(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof io.lettuce.core.RedisCommandTimeoutException
					|| cause instanceof java.util.concurrent.TimeoutException) {
				return true;
			}
		}
		return false;
	}

	private static void read(Map<String, Map<String, String>> nodes, String address, Supplier<String> info,
			boolean strict) {
		try {
			nodes.put(address, fields(info.get()));
		}
		catch (RuntimeException ex) {
			if (strict && (timedOut(ex) || Reconnects.rejected(ex))) {
				throw ex;
			}
			log.debug("INFO of {} could not be read: {}", address, ex.toString());
		}
	}

	// A sentinel client is never told the address it reached; CLIENT INFO's laddr (Redis
	// 6.2+) says it.
	private static String address(StatefulRedisConnection<String, String> master, Map<String, String> info) {
		try {
			Matcher local = LOCAL_ADDRESS.matcher(master.sync().clientInfo());
			if (local.find()) {
				return local.group(1);
			}
		}
		catch (RuntimeException ex) {
		}
		return "master:" + info.getOrDefault("tcp_port", "?");
	}

	static Map<String, String> fields(String info) {
		Map<String, String> fields = new LinkedHashMap<>();
		FIELD.matcher(info).results().forEach((field) -> fields.put(field.group(1), field.group(2).trim()));
		return fields;
	}

	private StatefulRedisConnection<String, String> replica(String host, int port) {
		String address = host + ":" + port;
		StatefulRedisConnection<String, String> replica = this.replicas.get(address);
		if (replica == null || !replica.isOpen()) {
			RedisURI source = PrivateState.redisUri(this.factory.getRequiredNativeClient());
			RedisURI.Builder uri = RedisURI.Builder.redis(host, port)
				.withAuthentication(source)
				.withSsl(source)
				.withDatabase(source.getDatabase());
			if (this.replicaClient == null) {
				this.replicaClient = RedisClient.create(this.factory.getClientResources());
			}
			replica = this.replicaClient.connect(StringCodec.UTF8, uri.build());
			this.replicas.put(address, replica);
		}
		return replica;
	}

	private synchronized @Nullable ClientList clientList() {
		try {
			List<Client> clients = new ArrayList<>();
			List<RedisCommands<String, String>> masters = new ArrayList<>();
			this.connection.forEachMaster((master, node) -> masters.add(master));
			List<String> time = masters.get(0).time();
			long micros = Long.parseLong(time.get(0)) * 1_000_000L + Long.parseLong(time.get(1));
			for (RedisCommands<String, String> master : masters) {
				for (String line : master.clientList().split("\n")) {
					if (!line.isBlank()) {
						clients.add(Client.parse(line));
					}
				}
			}
			return new ClientList(List.copyOf(clients), micros, masters.size());
		}
		catch (RuntimeException ex) {
			log.debug("Could not read the masters' client lists", ex);
			return null;
		}
	}

	public @Nullable ClientList clientsBefore(Route route, Set<String> commands, int clients) {
		ClientList before = clientList();
		// Only a connection used in this server second could pass for one the pass used:
		// idle counts whole seconds. A comparison's passes met others idle for seconds
		// on every pass, and waited half a second each for nothing.
		if (before == null || candidates(before, route, commands).filter((client) -> client.idleSeconds() == 0)
			.count() <= (long) clients * perClient(before)) {
			return before;
		}
		long micros = before.serverMicros() % 1_000_000L;
		log.debug(
				"Waiting into the server's next second: a master holds more connections of route {} used in this"
						+ " second than the run's {} clients: {}",
				route.clientName(), clients, candidates(before, route, commands).toList());
		try {
			Thread.sleep((1_000_000L - micros) / 1000 + 5);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return before;
		}
		return clientList();
	}

	/**
	 * {@code passBefore}, {@code passAfter}: the INFO snapshots around the pass, whose
	 * masters count the connections they accepted.
	 */
	public @Nullable Usage usage(@Nullable ClientList before, Snapshot passBefore, Snapshot passAfter, Route route,
			Set<String> commands) {
		ClientList after = clientList();
		if (before == null || after == null) {
			return null;
		}
		long idleBound = after.serverMicros() / 1_000_000L - before.serverMicros() / 1_000_000L;
		int used = (int) candidates(after, route, commands).filter((client) -> client.idleSeconds() <= idleBound)
			.count();
		return new Usage(used, connectionsReceived(passAfter) - connectionsReceived(passBefore));
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

	private static Stream<Client> candidates(ClientList list, Route route, Set<String> commands) {
		String name = (route.clientName() != null) ? route.clientName() : "";
		return list.clients()
			.stream()
			.filter((client) -> client.name().equals(name) && commands.contains(client.cmd()));
	}

	@Override
	public synchronized void destroy() {
		this.connection.close();
		this.replicas.values().forEach(StatefulConnection::close);
		if (this.replicaClient != null) {
			this.replicaClient.shutdown();
		}
	}

	public record Snapshot(Map<String, Map<String, String>> nodes) {
	}

	public record ClientList(List<Client> clients, long serverMicros, int masters) {
	}

	record Client(String name, String cmd, long idleSeconds) {

		static Client parse(String line) {
			Map<String, String> fields = new HashMap<>();
			CLIENT_FIELD.matcher(line).results().forEach((field) -> fields.put(field.group(1), field.group(2)));
			String idle = fields.get("idle");
			return new Client(fields.getOrDefault("name", ""), fields.getOrDefault("cmd", ""),
					(idle != null) ? Long.parseLong(idle) : Long.MAX_VALUE);
		}

	}

	public record Usage(int used, long opened) {
	}

}
