package dev.pipelininglab.redis;

import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ConnectionIntent;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.stereotype.Component;

/**
 * Cluster connections with auto-flush off, for pipelines sent to each master on that
 * master's own connection. A batch borrows one for itself and gets its node connections
 * ({@link Borrowed#master}): commands written there go to that node and nowhere else
 * (Lettuce's router is not involved, so a MOVED or ASK comes back as an error reply for
 * the caller to follow), and sit in the connection's buffer until the caller flushes it.
 * The cluster connection only keeps the node connections and Lettuce's view of the slots.
 * Concurrent clients each borrow their own, so at most as many are kept per route as
 * clients ran at once; they close with the route.
 */
@Component
public class MasterConnections implements DisposableBean {

	private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

	private final Map<LettuceConnectionFactory, Deque<StatefulRedisClusterConnection<byte[], byte[]>>> idle = new ConcurrentHashMap<>();

	MasterConnections(Connections routes) {
		// An evicted route's factory goes away; so do the connections kept for it.
		routes.onClose((factory) -> {
			Deque<StatefulRedisClusterConnection<byte[], byte[]>> kept = this.idle.remove(factory);
			if (kept != null) {
				kept.forEach(StatefulRedisClusterConnection::close);
			}
		});
	}

	/**
	 * A cluster connection of the route's client for the caller alone until it closes the
	 * returned handle.
	 * @throws DataAccessException when the cluster cannot be connected
	 * @throws IllegalStateException when the factory is not a cluster's
	 */
	public Borrowed borrow(LettuceConnectionFactory factory) {
		StatefulRedisClusterConnection<byte[], byte[]> connection = this.idle
			.computeIfAbsent(factory, (key) -> new ConcurrentLinkedDeque<>())
			.pollFirst();
		if (connection == null) {
			if (!(factory.getRequiredNativeClient() instanceof RedisClusterClient client)) {
				throw new IllegalStateException("Per-master pipelines need a cluster; this route's client is "
						+ factory.getRequiredNativeClient().getClass().getSimpleName());
			}
			try {
				connection = client.connect(ByteArrayCodec.INSTANCE);
			}
			catch (RuntimeException ex) {
				throw translate(ex);
			}
			// For the node connections it makes too: their commands wait for the caller's
			// flush.
			connection.setAutoFlushCommands(false);
		}
		return new Borrowed(this, factory, connection);
	}

	private void giveBack(LettuceConnectionFactory factory, StatefulRedisClusterConnection<byte[], byte[]> connection) {
		Deque<StatefulRedisClusterConnection<byte[], byte[]>> kept = this.idle.get(factory);
		if (kept != null && connection.isOpen()) {
			kept.offerFirst(connection);
		}
		else {
			// The route closed meanwhile.
			connection.close();
		}
	}

	private static RuntimeException translate(RuntimeException ex) {
		DataAccessException translated = EXCEPTIONS.convert(ex);
		return (translated != null) ? translated : ex;
	}

	@Override
	public void destroy() {
		this.idle.values().forEach((kept) -> kept.forEach(StatefulRedisClusterConnection::close));
		this.idle.clear();
	}

	/** One batch's hold on a cluster connection; closing gives it back. */
	public static final class Borrowed implements AutoCloseable {

		private final MasterConnections owner;

		private final LettuceConnectionFactory factory;

		private final StatefulRedisClusterConnection<byte[], byte[]> connection;

		private Borrowed(MasterConnections owner, LettuceConnectionFactory factory,
				StatefulRedisClusterConnection<byte[], byte[]> connection) {
			this.owner = owner;
			this.factory = factory;
			this.connection = connection;
		}

		/**
		 * The cluster connection, for its view of the slots
		 * ({@code getPartitions().getMasterBySlot(slot)}) and for connecting every master
		 * before a batch ({@link NodeConnections#connect}).
		 */
		public StatefulRedisClusterConnection<byte[], byte[]> cluster() {
			return this.connection;
		}

		/**
		 * The connection to the node at {@code host:port}, auto-flush off; it must be in
		 * Lettuce's view of the cluster (refresh the view first after a redirect to a
		 * node it does not know).
		 * @throws DataAccessException when the node cannot be connected
		 */
		public StatefulRedisConnection<byte[], byte[]> master(String host, int port) {
			try {
				return this.connection.getConnection(host, port, ConnectionIntent.WRITE);
			}
			catch (RuntimeException ex) {
				throw translate(ex);
			}
		}

		/** Lettuce's view of the cluster read again from the nodes, now. */
		public void refreshTopology() {
			try {
				((RedisClusterClient) this.factory.getRequiredNativeClient()).refreshPartitions();
			}
			catch (RuntimeException ex) {
				throw translate(ex);
			}
		}

		@Override
		public void close() {
			this.owner.giveBack(this.factory, this.connection);
		}

	}

}
