package dev.pipelininglab.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.types.RedisClientInfo;

/**
 * The connections {@link ServerCounters} reads every node through: {@code INFO} of each
 * master (and of the replicas a read-only run reads from) and each master's
 * {@code CLIENT LIST}.
 */
class NodeInfo implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(NodeInfo.class);

	private static final Pattern FIELD = Pattern.compile("(?m)^([a-z0-9_]+):([^\\r\\n]*)");

	static final Pattern REPLICA = Pattern.compile("(?m)^slave\\d+:ip=([^,]+),port=(\\d+),state=online");

	private final LettuceConnectionFactory factory;

	private final boolean replicaReads;

	private final NodeConnections.Own connection;

	private final Map<String, StatefulRedisConnection<String, String>> replicas = new LinkedHashMap<>();

	private @Nullable RedisClient replicaClient;

	/** A standalone or sentinel master's address by its INFO run_id. */
	private final Map<String, String> addresses = new ConcurrentHashMap<>();

	NodeInfo(LettuceConnectionFactory factory, boolean replicaReads) {
		this.factory = factory;
		this.replicaReads = replicaReads;
		this.connection = new NodeConnections.Own(factory);
	}

	/** {@code strict}: a master that times out or refuses fails the read. */
	synchronized ServerCounters.Snapshot take(boolean strict) {
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
		return new ServerCounters.Snapshot(nodes);
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
			String local = client(master.sync().clientInfo()).get("laddr");
			if (local != null) {
				return local;
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

	/**
	 * Every master's clients, and the first master's clock; null when one cannot be read.
	 * {@code clockAfter}: the clock read after the lists rather than before, for a list
	 * read after a pass, whose idle times count to its own last second.
	 */
	synchronized ServerCounters.@Nullable ClientList clientList(boolean clockAfter) {
		try {
			List<RedisCommands<String, String>> masters = new ArrayList<>();
			this.connection.forEachMaster((master, node) -> masters.add(master));
			long before = clockAfter ? 0 : micros(masters.get(0).time());
			List<RedisClientInfo> clients = masters.stream()
				.flatMap((master) -> master.clientList().lines())
				.filter((line) -> !line.isBlank())
				.map(NodeInfo::client)
				.toList();
			return new ServerCounters.ClientList(clients, clockAfter ? micros(masters.get(0).time()) : before,
					masters.size());
		}
		catch (RuntimeException ex) {
			log.debug("Could not read the masters' client lists", ex);
			return null;
		}
	}

	/**
	 * One line of CLIENT LIST or CLIENT INFO, read literally: a client's name may hold a
	 * backslash, which {@code RedisClientInfoBuilder}'s {@code Properties.load} would
	 * unescape or choke on, losing the whole list for one foreign client.
	 */
	static RedisClientInfo client(String line) {
		Properties fields = new Properties();
		for (String field : line.strip().split(" ")) {
			int equals = field.indexOf('=');
			if (equals > 0) {
				fields.setProperty(field.substring(0, equals), field.substring(equals + 1));
			}
		}
		return new RedisClientInfo(fields);
	}

	private static long micros(List<String> time) {
		return Long.parseLong(time.get(0)) * 1_000_000L + Long.parseLong(time.get(1));
	}

	@Override
	public synchronized void close() {
		this.connection.close();
		this.replicas.values().forEach(StatefulConnection::close);
		if (this.replicaClient != null) {
			this.replicaClient.shutdown();
		}
	}

}
