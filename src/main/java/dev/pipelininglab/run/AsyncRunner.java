package dev.pipelininglab.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.LongStream;

import dev.pipelininglab.redis.RouteCache;
import dev.pipelininglab.redis.NodeConnections;
import dev.pipelininglab.redis.RedisReplies;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Lettuce's async API on a connection of its own with auto-flush off, one flush per batch
 * and no Spring Data Redis in between: the ceiling the client library itself reaches.
 */
@Component
class AsyncRunner extends BatchRunner implements DisposableBean {

	/** Per route; batches take it in turn, since auto-flush is off for all of it. */
	private final Map<LettuceConnectionFactory, StatefulConnection<byte[], byte[]>> connections = new ConcurrentHashMap<>();

	AsyncRunner(RouteCache routes) {
		super(Mode.ASYNC);
		routes.onClose((factory) -> Optional.ofNullable(this.connections.remove(factory))
			.ifPresent(StatefulConnection::close));
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		StatefulConnection<byte[], byte[]> connection = connection(pass.route().lettuce());
		Duration timeout = pass.route().lettuce().getClientConfiguration().getCommandTimeout();
		synchronized (connection) {
			RedisClusterAsyncCommands<byte[], byte[]> async;
			if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
				// A command for a node still being connected could miss the flush
				// (lettuce issues 1111, 2420); every batch, as a failover moves slots.
				NodeConnections.connect(cluster, false, timeout);
				async = cluster.async();
			}
			else {
				async = ((StatefulRedisConnection<byte[], byte[]>) connection).async();
			}
			List<RedisFuture<?>> futures = LongStream.range(from, to)
				.<RedisFuture<?>>mapToObj((i) -> pass.command(i).async(async, pass, i, pass.keyBytes(i)))
				.toList();
			connection.flushCommands();
			if (!LettuceFutures.awaitAll(timeout, futures.toArray(new RedisFuture[0]))) {
				throw new QueryTimeoutException(
						"Redis did not answer " + futures.size() + " commands within " + timeout);
			}
			// Lazily: the replies before a failed command are counted before it throws.
			pass.count(from, () -> futures.stream().map(AsyncRunner::result).iterator(), tally);
		}
	}

	private static Object result(RedisFuture<?> future) {
		try {
			return future.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisSystemException("Interrupted while waiting for Redis", ex);
		}
		catch (ExecutionException ex) {
			throw RedisReplies.translatedOr((ex.getCause() != null) ? ex.getCause() : ex,
					(cause) -> new RedisSystemException(cause.getMessage(), ex));
		}
	}

	private StatefulConnection<byte[], byte[]> connection(LettuceConnectionFactory factory) {
		try {
			StatefulConnection<byte[], byte[]> cached = this.connections.get(factory);
			if (cached != null && !cached.isOpen()) {
				// REJECT_COMMANDS would refuse every command until reconnected.
				this.connections.remove(factory, cached);
				cached.closeAsync();
			}
			return this.connections.computeIfAbsent(factory, AsyncRunner::connect);
		}
		catch (RuntimeException ex) {
			throw RedisReplies.translatedOr(ex);
		}
	}

	private static StatefulConnection<byte[], byte[]> connect(LettuceConnectionFactory factory) {
		AbstractRedisClient client = factory.getRequiredNativeClient();
		StatefulConnection<byte[], byte[]> connection = (client instanceof RedisClusterClient cluster)
				? cluster.connect(ByteArrayCodec.INSTANCE) : ((RedisClient) client).connect(ByteArrayCodec.INSTANCE);
		connection.setAutoFlushCommands(false);
		return connection;
	}

	@Override
	public void destroy() {
		this.connections.values().forEach(StatefulConnection::close);
	}

}
