package dev.pipelininglab.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ConnectionIntent;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;

/**
 * Connects a cluster connection to every node its commands may be routed to, before a
 * pipeline or a manually flushed batch starts.
 * <p>
 * With auto-flush off (flush policies {@code flush-on-close} and {@code buffered-<n>},
 * and our async runs), Lettuce writes a command for a node whose connection is still
 * being established only once that connection is up. That can be after the batch's last
 * flush, and then the command sits in the buffer until the batch times out (lettuce
 * issues 1111 and 2420). It happens on the first pipeline of each pooled connection (each
 * has node connections of its own) and after a failover, when slots move to a node that
 * connection never talked to. So this runs before every batch; once everything is
 * connected it costs a lookup per node.
 * <p>
 * Slot routing keys node connections by host and port (not by node id), and replica reads
 * use connections of their own (opened with READONLY), so those are exactly the
 * connections opened here.
 */
public final class NodeConnections {

	private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

	private NodeConnections() {
	}

	/**
	 * For a pipelined Spring Data Redis connection on a cluster: connects the pipeline's
	 * own cluster connection. Does nothing for standalone and sentinel connections, which
	 * have a single socket to their master (and, when reading from replicas, sockets
	 * opened with the connection).
	 * @param factory the factory the connection came from, for its read-from setting and
	 * command timeout
	 */
	public static void connect(RedisConnection connection, LettuceConnectionFactory factory) {
		if (connection instanceof RedisClusterConnection
				&& connection.getNativeConnection() instanceof RedisAdvancedClusterAsyncCommands<?, ?> commands) {
			connect(commands.getStatefulConnection(), readsFromReplicas(factory),
					factory.getClientConfiguration().getCommandTimeout());
		}
	}

	/**
	 * Connects {@code connection} to every master that serves slots, and to every replica
	 * when reads may go there, waiting at most {@code timeout} in all.
	 * @throws DataAccessException when a master cannot be connected (its slots cannot be
	 * served, so the batch would fail anyway); replicas that cannot be connected are left
	 * out, since Lettuce then reads from another candidate
	 */
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
					// Lettuce refuses nodes missing from its current view of the
					// topology, e.g. mid-refresh.
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
				// Still connecting: a command routed there now could be stranded, so no
				// batch may start yet.
				throw new QueryTimeoutException("Connecting to cluster node " + node.address() + " took longer than "
						+ timeout + " (spring.data.redis.timeout)");
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new RedisConnectionFailureException("Interrupted while connecting to " + node.address(), ex);
			}
		}
	}

	/**
	 * A string connection of the caller's own on the factory's native client, for
	 * commands that must not hold up the shared connection. For sentinel the client is
	 * the one Spring Data Redis built on the sentinel URI: it connects to the master the
	 * sentinels name, and again after a failover.
	 */
	public static StatefulConnection<String, String> open(LettuceConnectionFactory factory) {
		AbstractRedisClient client = factory.getRequiredNativeClient();
		return (client instanceof RedisClusterClient cluster) ? cluster.connect(StringCodec.UTF8)
				: ((RedisClient) client).connect(StringCodec.UTF8);
	}

	/**
	 * True when the factory sends reads to replicas
	 * ({@code spring.data.redis.lettuce.read-from} other than upstream).
	 */
	public static boolean readsFromReplicas(LettuceConnectionFactory factory) {
		return factory.getClientConfiguration()
			.getReadFrom()
			.filter((readFrom) -> readFrom.getClass() != ReadFrom.UPSTREAM.getClass())
			.isPresent();
	}

	private static DataAccessException translate(Throwable failure) {
		DataAccessException translated = (failure instanceof Exception ex) ? EXCEPTIONS.convert(ex) : null;
		return (translated != null) ? translated : new RedisConnectionFailureException(
				"Cannot connect to a cluster node: " + failure.getMessage(), failure);
	}

	private record Pending(String address, boolean master, CompletableFuture<?> connection) {
	}

}
