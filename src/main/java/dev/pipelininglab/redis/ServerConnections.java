package dev.pipelininglab.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * The connections a run really used, as the server(s) see them, not as the client code
 * assumes: {@code CLIENT LIST} and {@code INFO stats} on every master, read around a
 * timed pass on a connection of its own. Redis 7.0 keeps no per-connection command count,
 * so a connection counts as used when it carries the run's route name
 * ({@code CLIENT SETNAME}), its last command is one the run sends, and it was not idle
 * for longer than the pass lasted.
 */
@Component
public class ServerConnections implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(ServerConnections.class);

	private static final Pattern FIELD = Pattern.compile("(\\w[\\w-]*)=(\\S*)");

	private static final Pattern RECEIVED = Pattern.compile("(?m)^total_connections_received:(\\d+)");

	private final LettuceConnectionFactory factory;

	private @Nullable StatefulConnection<String, String> connection;

	ServerConnections(LettuceConnectionFactory factory) {
		this.factory = factory;
	}

	/**
	 * @return what the masters report now, or null when they could not be asked (the run
	 * goes on without the count)
	 */
	public synchronized @Nullable Snapshot snapshot() {
		try {
			long received = 0;
			List<Client> clients = new ArrayList<>();
			for (RedisCommands<String, String> master : masters()) {
				Matcher matcher = RECEIVED.matcher(master.info("stats"));
				if (matcher.find()) {
					received += Long.parseLong(matcher.group(1));
				}
				for (String line : master.clientList().split("\n")) {
					if (!line.isBlank()) {
						clients.add(Client.parse(line));
					}
				}
			}
			return new Snapshot(received, List.copyOf(clients));
		}
		catch (RuntimeException ex) {
			log.debug("Could not read the masters' client lists", ex);
			return null;
		}
	}

	/**
	 * @param route the run's route, whose connections carry its name
	 * @param commands the commands the run sends, as {@code CLIENT LIST} names them
	 * ({@code set}, {@code mset}, {@code evalsha}...)
	 * @param passNanos how long the timed pass took
	 */
	public static @Nullable Usage usage(@Nullable Snapshot before, @Nullable Snapshot after, Route route,
			Set<String> commands, long passNanos) {
		if (before == null || after == null) {
			return null;
		}
		String name = (route.clientName() != null) ? route.clientName() : "";
		long idleBound = (passNanos + 999_999_999L) / 1_000_000_000L + 1;
		int used = (int) after.clients()
			.stream()
			.filter((client) -> client.name().equals(name) && commands.contains(client.cmd())
					&& client.idleSeconds() <= idleBound)
			.count();
		return new Usage(used, after.connectionsReceived() - before.connectionsReceived());
	}

	private List<RedisCommands<String, String>> masters() {
		StatefulConnection<String, String> connection = connection();
		if (connection instanceof StatefulRedisClusterConnection<String, String> cluster) {
			List<RedisCommands<String, String>> masters = new ArrayList<>();
			for (RedisClusterNode node : cluster.getPartitions()) {
				if (node.is(NodeFlag.UPSTREAM) && !node.hasNoSlots() && !node.is(NodeFlag.FAIL)) {
					masters.add(cluster.getConnection(node.getUri().getHost(), node.getUri().getPort()).sync());
				}
			}
			return masters;
		}
		return List.of(((StatefulRedisConnection<String, String>) connection).sync());
	}

	/**
	 * A connection of its own, so the counts are not taken on a connection the run uses.
	 * For sentinel, the client Spring Data Redis built on the sentinel URI connects to
	 * the master the sentinels name.
	 */
	private StatefulConnection<String, String> connection() {
		if (this.connection == null || !this.connection.isOpen()) {
			AbstractRedisClient client = this.factory.getRequiredNativeClient();
			this.connection = (client instanceof RedisClusterClient cluster) ? cluster.connect(StringCodec.UTF8)
					: ((RedisClient) client).connect(StringCodec.UTF8);
		}
		return this.connection;
	}

	@Override
	public synchronized void destroy() {
		if (this.connection != null) {
			this.connection.close();
		}
	}

	/**
	 * @param connectionsReceived {@code total_connections_received}, summed over the
	 * masters
	 * @param clients every connection the masters had open
	 */
	public record Snapshot(long connectionsReceived, List<Client> clients) {
	}

	record Client(String name, String cmd, long idleSeconds) {

		static Client parse(String line) {
			String name = "";
			String cmd = "";
			long idle = Long.MAX_VALUE;
			Matcher field = FIELD.matcher(line);
			while (field.find()) {
				switch (field.group(1)) {
					case "name" -> name = field.group(2);
					case "cmd" -> cmd = field.group(2);
					case "idle" -> idle = Long.parseLong(field.group(2));
					default -> {
					}
				}
			}
			return new Client(name, cmd, idle);
		}

	}

	/**
	 * @param used connections of the run's route on which the masters saw the run's
	 * commands
	 * @param opened connections the masters accepted during the timed pass (from anyone):
	 * 0 when the run's connections were all open beforehand
	 */
	public record Usage(int used, long opened) {
	}

}
