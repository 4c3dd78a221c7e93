package dev.pipelininglab.redis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ConnectionIntent;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.stereotype.Component;

/**
 * The server's side of a run: Redis {@code INFO} read on every data node a run may use
 * (the master; its replicas when reads go there; every cluster node), before and after a
 * timed pass, on connections of its own and outside the timed region. The counters are
 * server-wide, so other clients' traffic and the INFO calls themselves count too.
 * <p>
 * Reading them never fails a run: a node that does not answer is left out of the figures.
 */
@Component
public class ServerCounters implements DisposableBean {

	/** What the answers say about the figures, once, in one place. */
	public static final String SCOPE = "server-wide INFO deltas around the timed pass; other clients' commands and"
			+ " the INFO calls themselves count too; totals sum the masters (and the replicas a read-only run reads"
			+ " from), nodes lists every node; evictedKeys, expiredKeys and usedMemoryBytes span the whole run, from"
			+ " before its first write to its verification, summed over the masters";

	private static final Logger log = LoggerFactory.getLogger(ServerCounters.class);

	private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

	/**
	 * A field of INFO; digits too, so the keyspace lines ({@code db0:keys=...}) are read.
	 */
	private static final Pattern FIELD = Pattern.compile("(?m)^([a-z0-9_]+):([^\\r\\n]*)");

	private static final Pattern LOCAL_ADDRESS = Pattern.compile("laddr=(\\S+)");

	private static final Pattern REPLICA = Pattern.compile("(?m)^slave\\d+:ip=([^,]+),port=(\\d+),state=online");

	private final LettuceConnectionFactory factory;

	private final boolean replicaReads;

	private @Nullable StatefulConnection<String, String> connection;

	private final Map<String, StatefulRedisConnection<String, String>> replicas = new LinkedHashMap<>();

	private @Nullable RedisClient replicaClient;

	ServerCounters(LettuceConnectionFactory factory) {
		this.factory = factory;
		this.replicaReads = NodeConnections.readsFromReplicas(factory);
	}

	/**
	 * INFO of every node now, keyed by {@code host:port}; empty when Redis could not be
	 * asked.
	 */
	public Snapshot snapshot() {
		try {
			return take(false);
		}
		catch (RuntimeException ex) {
			return new Snapshot(new TreeMap<>());
		}
	}

	/**
	 * INFO of every node now, as {@link #snapshot()}, but failing as a run would when a
	 * master does not answer in time: the preflight before a run must not wait out a
	 * stalled server's timeout and then let the run wait it out again. A master that
	 * refuses the connection is left out at once, as in {@link #snapshot()}: the run then
	 * gets the cluster's or server's own answer.
	 * @throws DataAccessException when a master timed out
	 */
	public Snapshot read() {
		try {
			return take(true);
		}
		catch (DataAccessException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			DataAccessException translated = EXCEPTIONS.convert(ex);
			throw (translated != null) ? translated
					: new RedisSystemException("INFO could not be read: " + ex.getMessage(), ex);
		}
	}

	private synchronized Snapshot take(boolean strict) {
		Map<String, Map<String, String>> nodes = new TreeMap<>();
		try {
			StatefulConnection<String, String> connection = connection();
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
				String info = master.sync().info();
				nodes.put(address(master, info), fields(info));
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
			if (strict && timedOut(ex)) {
				throw ex;
			}
		}
		return new Snapshot(nodes);
	}

	/**
	 * What happened on the servers between two snapshots: per node, and in total over the
	 * nodes that serve the run ({@link #serves}), so replicas replaying a master's writes
	 * do not count the run's commands twice.
	 */
	public @Nullable ServerStats between(Snapshot before, Snapshot after, boolean replicasServe) {
		Map<String, ServerStats> nodes = deltas(before, after);
		if (nodes.isEmpty()) {
			return null;
		}
		Map<String, ServerStats> serving = new TreeMap<>(nodes);
		serving.keySet().removeIf((address) -> !serves(after, address, replicasServe));
		return ServerStats.total(nodes, serving.isEmpty() ? nodes : serving);
	}

	/**
	 * {@code stats} with the run-wide figures added (keys evicted and expired,
	 * {@code used_memory} before and after), read from snapshots taken before the run
	 * wrote its first key and after it was verified; {@code stats} as it is when either
	 * is missing.
	 */
	public @Nullable ServerStats withRunWide(@Nullable ServerStats stats, @Nullable Snapshot before,
			@Nullable Snapshot after) {
		if (stats == null || before == null || after == null) {
			return stats;
		}
		return stats.withRunWide(before.nodes(), after.nodes());
	}

	/**
	 * Whether a node's counters are the run's work: every master, and the replicas too
	 * when {@code replicasServe} (a read-only run with replica reads). Otherwise replicas
	 * only replay their master's writes.
	 */
	private boolean serves(Snapshot snapshot, String address, boolean replicasServe) {
		Map<String, String> node = snapshot.nodes().get(address);
		boolean replica = node != null && "slave".equals(node.get("role"));
		return !replica || (replicasServe && this.replicaReads);
	}

	/** Per node, what happened between two snapshots, over the nodes both have. */
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

	/**
	 * Each node's CPU ({@code used_cpu_user + used_cpu_sys}) between two snapshots, in
	 * seconds, keyed by {@code host:port}: masters and replicas, as all of them spend it.
	 * A node either snapshot lacks is left out.
	 */
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

	/**
	 * Commands processed between two snapshots on the nodes a run's commands reach: every
	 * master, and the replicas too when {@code replicasServe} (a read-only run with
	 * replica reads). Otherwise replicas are left out, as they only replay their master's
	 * writes and would count each of the run's commands again. Null when no such node
	 * answered both times.
	 */
	public @Nullable Processed processed(Snapshot before, Snapshot after, boolean replicasServe) {
		long commands = 0;
		int nodes = 0;
		for (Map.Entry<String, ServerStats> node : deltas(before, after).entrySet()) {
			if (serves(after, node.getKey(), replicasServe)) {
				commands += node.getValue().commands();
				nodes++;
			}
		}
		return (nodes > 0) ? new Processed(commands, nodes) : null;
	}

	/**
	 * @param commands {@code total_commands_processed} gained, summed over the nodes
	 * @param nodes how many nodes were summed
	 */
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

	private interface Info {

		String read();

	}

	private static void read(Map<String, Map<String, String>> nodes, String address, Info info, boolean strict) {
		try {
			nodes.put(address, fields(info.read()));
		}
		catch (RuntimeException ex) {
			if (strict && timedOut(ex)) {
				throw ex;
			}
			// A node going away mid-run: the others still tell their part.
			log.debug("INFO of {} could not be read: {}", address, ex.toString());
		}
	}

	/**
	 * The master's {@code host:port} as it sees this connection ({@code laddr} of CLIENT
	 * INFO, Redis 6.2+), since a sentinel client is never told the address it reached.
	 */
	private static String address(StatefulRedisConnection<String, String> master, String info) {
		try {
			Matcher local = LOCAL_ADDRESS.matcher(master.sync().clientInfo());
			if (local.find()) {
				return local.group(1);
			}
		}
		catch (RuntimeException ex) {
			// Redis before 6.2 has no CLIENT INFO
		}
		return "master:" + fields(info).getOrDefault("tcp_port", "?");
	}

	static Map<String, String> fields(String info) {
		Map<String, String> fields = new LinkedHashMap<>();
		Matcher matcher = FIELD.matcher(info);
		while (matcher.find()) {
			fields.put(matcher.group(1), matcher.group(2).trim());
		}
		return fields;
	}

	private StatefulConnection<String, String> connection() {
		if (this.connection == null || !this.connection.isOpen()) {
			this.connection = NodeConnections.open(this.factory);
		}
		return this.connection;
	}

	private StatefulRedisConnection<String, String> replica(String host, int port) {
		String address = host + ":" + port;
		StatefulRedisConnection<String, String> replica = this.replicas.get(address);
		if (replica == null || !replica.isOpen()) {
			RedisURI source = (RedisURI) new DirectFieldAccessor(this.factory.getRequiredNativeClient())
				.getPropertyValue("redisURI");
			RedisURI.Builder uri = RedisURI.Builder.redis(host, port);
			if (source != null) {
				uri.withAuthentication(source).withSsl(source).withDatabase(source.getDatabase());
			}
			if (this.replicaClient == null) {
				this.replicaClient = RedisClient.create(this.factory.getClientResources());
			}
			replica = this.replicaClient.connect(StringCodec.UTF8, uri.build());
			this.replicas.put(address, replica);
		}
		return replica;
	}

	@Override
	public synchronized void destroy() {
		if (this.connection != null) {
			this.connection.close();
		}
		this.replicas.values().forEach(StatefulConnection::close);
		if (this.replicaClient != null) {
			this.replicaClient.shutdown();
		}
	}

	/** INFO fields of each node, keyed by {@code host:port}. */
	public record Snapshot(Map<String, Map<String, String>> nodes) {
	}

}
