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
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/** Cluster connections with auto-flush off, for pipelines sent to each master. */
@Component
public class MasterConnections implements DisposableBean {

	private final Map<LettuceConnectionFactory, Deque<StatefulRedisClusterConnection<byte[], byte[]>>> idle = new ConcurrentHashMap<>();

	MasterConnections(RouteCache routes) {
		routes.onClose((factory) -> {
			Deque<StatefulRedisClusterConnection<byte[], byte[]>> kept = this.idle.remove(factory);
			if (kept != null) {
				kept.forEach(StatefulRedisClusterConnection::close);
			}
		});
	}

	public Borrowed borrow(LettuceConnectionFactory factory) {
		StatefulRedisClusterConnection<byte[], byte[]> connection = this.idle
			.computeIfAbsent(factory, (key) -> new ConcurrentLinkedDeque<>())
			.pollFirst();
		if (connection == null) {
			if (!(factory.getRequiredNativeClient() instanceof RedisClusterClient client)) {
				throw new IllegalStateException("Per-master pipelines need a cluster; this route's client is "
						+ factory.getRequiredNativeClient().getClass().getSimpleName());
			}
			connection = RedisReplies.translating(() -> client.connect(ByteArrayCodec.INSTANCE));
			// So do the node connections it makes: commands wait for the caller's flush,
			// with no MOVED followed.
			connection.setAutoFlushCommands(false);
		}
		return new Borrowed(connection, factory, this);
	}

	private void giveBack(LettuceConnectionFactory factory, StatefulRedisClusterConnection<byte[], byte[]> connection) {
		Deque<StatefulRedisClusterConnection<byte[], byte[]>> kept = this.idle.get(factory);
		if (kept != null && connection.isOpen()) {
			kept.offerFirst(connection);
		}
		else {
			connection.close();
		}
	}

	@Override
	public void destroy() {
		this.idle.values().forEach((kept) -> kept.forEach(StatefulRedisClusterConnection::close));
		this.idle.clear();
	}

	public record Borrowed(StatefulRedisClusterConnection<byte[], byte[]> cluster, LettuceConnectionFactory factory,
			MasterConnections owner) implements AutoCloseable {

		public StatefulRedisConnection<byte[], byte[]> master(String host, int port) {
			return RedisReplies.translating(() -> this.cluster.getConnection(host, port, ConnectionIntent.WRITE));
		}

		public void refreshTopology() {
			try {
				((RedisClusterClient) this.factory.getRequiredNativeClient()).refreshPartitions();
			}
			catch (RuntimeException ex) {
				throw RedisReplies.translatedOr(ex);
			}
		}

		@Override
		public void close() {
			this.owner.giveBack(this.factory, this.cluster);
		}

	}

}
