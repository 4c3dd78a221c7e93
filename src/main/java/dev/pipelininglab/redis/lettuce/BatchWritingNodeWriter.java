package dev.pipelininglab.redis.lettuce;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisException;
import io.lettuce.core.protocol.ConnectionFacade;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.netty.channel.Channel;
import org.jspecify.annotations.Nullable;

/**
 * The cluster counterpart of {@link BatchWritingEndpoint}: node endpoints are private, so
 * it wraps their writer and reads the endpoint's protected {@code channel}.
 */
final class BatchWritingNodeWriter implements RedisChannelWriter {

	private static final VarHandle CHANNEL;

	static {
		try {
			CHANNEL = MethodHandles.privateLookupIn(DefaultEndpoint.class, MethodHandles.lookup())
				.findVarHandle(DefaultEndpoint.class, "channel", Channel.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final RedisChannelWriter writer;

	private final DefaultEndpoint endpoint;

	private volatile boolean autoFlush = true;

	private final PendingCommands pending = new PendingCommands();

	private BatchWritingNodeWriter(RedisChannelWriter writer, DefaultEndpoint endpoint) {
		this.writer = writer;
		this.endpoint = endpoint;
	}

	static RedisChannelWriter wrap(RedisChannelWriter writer, Object endpoint, ClientOptions options) {
		if (!(endpoint instanceof DefaultEndpoint node) || options.getRequestQueueSize() != Integer.MAX_VALUE) {
			return writer;
		}
		return new BatchWritingNodeWriter(writer, node);
	}

	private @Nullable Channel batchingChannel() {
		if (this.autoFlush) {
			return null;
		}
		Channel channel = (Channel) CHANNEL.getVolatile(this.endpoint);
		return (channel != null && channel.isActive() && !channel.eventLoop().inEventLoop()) ? channel : null;
	}

	@Override
	public <K, V, T> RedisCommand<K, V, T> write(RedisCommand<K, V, T> command) {
		if (batchingChannel() == null) {
			return this.writer.write(command);
		}
		this.pending.add(command);
		return command;
	}

	@Override
	public <K, V> Collection<RedisCommand<K, V, ?>> write(Collection<? extends RedisCommand<K, V, ?>> commands) {
		if (batchingChannel() == null) {
			return this.writer.write(commands);
		}
		this.pending.addAll(commands);
		@SuppressWarnings("unchecked")
		Collection<RedisCommand<K, V, ?>> written = (Collection<RedisCommand<K, V, ?>>) commands;
		return written;
	}

	@Override
	public void setAutoFlushCommands(boolean autoFlush) {
		this.writer.setAutoFlushCommands(autoFlush);
		this.autoFlush = autoFlush;
		if (autoFlush) {
			flushCommands();
		}
	}

	@Override
	public void flushCommands() {
		// What the endpoint buffered while the connection was down goes first.
		this.writer.flushCommands();
		List<RedisCommand<?, ?, ?>> batch = this.pending.take();
		if (batch.isEmpty()) {
			return;
		}
		Channel channel = (Channel) CHANNEL.getVolatile(this.endpoint);
		if (!BatchWritingEndpoint.writable(channel)) {
			List<? extends RedisCommand<Object, Object, ?>> commands = uncheckedCast(batch);
			this.writer.write(commands);
			this.writer.flushCommands();
			return;
		}
		PendingCommands.writeAsOne(channel, batch);
	}

	@SuppressWarnings("unchecked")
	private static List<? extends RedisCommand<Object, Object, ?>> uncheckedCast(List<RedisCommand<?, ?, ?>> batch) {
		return (List<? extends RedisCommand<Object, Object, ?>>) (List<?>) batch;
	}

	@Override
	public void close() {
		cancelPending();
		this.writer.close();
	}

	@Override
	public CompletableFuture<Void> closeAsync() {
		cancelPending();
		return this.writer.closeAsync();
	}

	private void cancelPending() {
		RedisException closed = new RedisException("Connection closed");
		this.pending.take().forEach((command) -> command.completeExceptionally(closed));
	}

	@Override
	public void setConnectionFacade(ConnectionFacade connection) {
		this.writer.setConnectionFacade(connection);
	}

	@Override
	public ClientResources getClientResources() {
		return this.writer.getClientResources();
	}

}
