package dev.pipelininglab.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ConnectionIntent;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Connects a cluster connection to every node before a batch: with auto-flush off a
 * command for a node still connecting can be stranded (lettuce issues 1111, 2420).
 */
public final class NodeConnections {

	private NodeConnections() {
	}

	public static void connect(RedisConnection connection, LettuceConnectionFactory factory) {
		if (connection instanceof RedisClusterConnection
				&& connection.getNativeConnection() instanceof RedisAdvancedClusterAsyncCommands<?, ?> commands) {
			connect(commands.getStatefulConnection(), readsFromReplicas(factory),
					factory.getClientConfiguration().getCommandTimeout());
		}
	}

	public static void connect(StatefulRedisClusterConnection<?, ?> connection, boolean replicas, Duration timeout) {
		List<Pending> pending = new ArrayList<>();
		for (RedisClusterNode node : connection.getPartitions()) {
			boolean master = node.is(NodeFlag.UPSTREAM) && !node.hasNoSlots();
			boolean replica = replicas && node.is(NodeFlag.REPLICA) && !node.is(NodeFlag.FAIL);
			if (master || replica) {
				String host = node.getUri().getHost();
				int port = node.getUri().getPort();
				ConnectionIntent intent = master ? ConnectionIntent.WRITE : ConnectionIntent.READ;
				try {
					pending
						.add(new Pending(host + ":" + port, master, connection.getConnectionAsync(host, port, intent)));
				}
				catch (RedisException ex) {
					if (master) {
						throw translate(ex);
					}
				}
			}
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		for (Pending node : pending) {
			try {
				node.connection().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException ex) {
				if (node.master()) {
					Throwable cause = ex.getCause();
					throw translate((cause != null) ? cause : ex);
				}
			}
			catch (TimeoutException ex) {
				throw new QueryTimeoutException("Connecting to cluster node " + node.address() + " took longer than "
						+ timeout + " (spring.data.redis.timeout)");
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new RedisConnectionFailureException("Interrupted while connecting to " + node.address(), ex);
			}
		}
	}

	public static boolean readsFromReplicas(LettuceConnectionFactory factory) {
		return factory.getClientConfiguration()
			.getReadFrom()
			.filter((readFrom) -> readFrom.getClass() != ReadFrom.UPSTREAM.getClass())
			.isPresent();
	}

	private static RuntimeException translate(Throwable failure) {
		return RedisReplies.translatedOr(failure, (other) -> new RedisConnectionFailureException(
				"Cannot connect to a cluster node: " + other.getMessage(), other));
	}

	/**
	 * A string connection of the owner's own, opened on first use and again once closed;
	 * the preflight's one is a bean ({@link RedisConfiguration}).
	 */
	static final class Own implements AutoCloseable {

		private final LettuceConnectionFactory factory;

		private @Nullable StatefulConnection<String, String> connection;

		Own(LettuceConnectionFactory factory) {
			this.factory = factory;
		}

		synchronized StatefulConnection<String, String> get() {
			StatefulConnection<String, String> open = this.connection;
			if (open == null || !open.isOpen()) {
				AbstractRedisClient client = this.factory.getRequiredNativeClient();
				open = (client instanceof RedisClusterClient cluster) ? cluster.connect(StringCodec.UTF8)
						: ((RedisClient) client).connect(StringCodec.UTF8);
				this.connection = open;
			}
			return open;
		}

		RedisClusterCommands<String, String> commands() {
			StatefulConnection<String, String> open = get();
			return (open instanceof StatefulRedisClusterConnection<String, String> cluster) ? cluster.sync()
					: ((StatefulRedisConnection<String, String>) open).sync();
		}

		// A cluster's node at host:port, else the one server.
		StatefulRedisConnection<String, String> node(String address) {
			StatefulConnection<String, String> open = get();
			if (open instanceof StatefulRedisClusterConnection<String, String> cluster) {
				int colon = address.lastIndexOf(':');
				return cluster.getConnection(address.substring(0, colon),
						Integer.parseInt(address.substring(colon + 1)));
			}
			return (StatefulRedisConnection<String, String>) open;
		}

		// A cluster's live masters with slots, else the one server.
		void forEachMaster(BiConsumer<RedisCommands<String, String>, @Nullable RedisClusterNode> action) {
			StatefulConnection<String, String> open = get();
			if (open instanceof StatefulRedisClusterConnection<String, String> cluster) {
				for (RedisClusterNode node : cluster.getPartitions()) {
					if (node.is(NodeFlag.UPSTREAM) && !node.hasNoSlots() && !node.is(NodeFlag.FAIL)) {
						action.accept(cluster.getConnection(node.getUri().getHost(), node.getUri().getPort()).sync(),
								node);
					}
				}
			}
			else {
				action.accept(((StatefulRedisConnection<String, String>) open).sync(), null);
			}
		}

		@Override
		public synchronized void close() {
			if (this.connection != null) {
				this.connection.close();
			}
		}

	}

	private record Pending(String address, boolean master, CompletableFuture<?> connection) {
	}

}
