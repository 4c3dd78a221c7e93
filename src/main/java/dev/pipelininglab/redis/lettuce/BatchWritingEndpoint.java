package dev.pipelininglab.redis.lettuce;

import java.util.List;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.lettuce.core.protocol.MaintenanceAwareConnectionWatchdog;
import io.lettuce.core.protocol.RebindState;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.netty.channel.Channel;
import org.jspecify.annotations.Nullable;

/**
 * A Lettuce endpoint that hands the commands buffered while auto-flush is off to Netty as
 * one message.
 * <p>
 * Lettuce's own endpoint writes a buffered pipeline command by command: each
 * {@code channel.write} from an application thread becomes a task for the event loop with
 * its own promise, listener and encode buffer, and profiles of pipelined SETs showed that
 * per-command hand-over, not Redis, as the limit. Lettuce's {@code CommandHandler} and
 * {@code CommandEncoder} already accept a collection of commands (one stack push each,
 * one buffer for all), so this endpoint only changes the hand-over: one task per flush
 * instead of one per command.
 * <p>
 * Everything else is Lettuce's: auto-flushed writes, reconnection, the disconnected
 * buffer and cancelling on close. A flush whose write fails completes its commands with
 * the failure instead of queueing them for a retry, which is what a pipeline wants: the
 * caller learns at once, and the connection still reconnects by itself.
 */
class BatchWritingEndpoint extends DefaultEndpoint {

	/**
	 * A bounded request queue needs Lettuce's own accounting of buffered commands, so
	 * with one this endpoint behaves exactly like Lettuce's.
	 */
	private final boolean batching;

	private volatile boolean autoFlush = true;

	/** Commands written since the last flush. */
	private final PendingCommands pending = new PendingCommands();

	BatchWritingEndpoint(ClientOptions options, ClientResources resources) {
		super(options, resources);
		this.batching = options.getRequestQueueSize() == Integer.MAX_VALUE;
	}

	@Override
	public void setAutoFlushCommands(boolean autoFlush) {
		super.setAutoFlushCommands(autoFlush);
		this.autoFlush = autoFlush;
	}

	/**
	 * While auto-flush is off and the connection is up, a command only joins the pending
	 * batch. Lettuce's own write path would also take its shared writer lock (a
	 * thread-local map update) and look up the channel's attributes for every command;
	 * those checks are made once per flush instead.
	 */
	@Override
	public <K, V, T> RedisCommand<K, V, T> write(RedisCommand<K, V, T> command) {
		Channel channel = this.channel;
		if (this.batching && !this.autoFlush && channel != null && channel.isActive() && !isClosed()
				&& !channel.eventLoop().inEventLoop()) {
			this.pending.add(command);
			return command;
		}
		return super.write(command);
	}

	@Override
	protected <C extends RedisCommand<?, ?, T>, T> void writeToBuffer(C command) {
		if (!this.batching) {
			super.writeToBuffer(command);
			return;
		}
		this.pending.add(command);
	}

	@Override
	public void flushCommands() {
		Channel channel = this.channel;
		if (!this.batching || !writable(channel)) {
			// Like Lettuce: buffered commands wait for the connection to come back (or
			// for a reconnect to move its commands along), and are cancelled with the
			// rest if it is closed or rejects commands meanwhile.
			super.flushCommands();
			return;
		}
		List<RedisCommand<?, ?, ?>> batch = doExclusive(this.pending::take);
		if (batch.isEmpty()) {
			return;
		}
		PendingCommands.writeAsOne(channel, batch);
	}

	/**
	 * Lettuce's own test: connected, and not being moved to another node by a maintenance
	 * rebind.
	 */
	static boolean writable(@Nullable Channel channel) {
		if (channel == null || !channel.isActive()) {
			return false;
		}
		return !channel.hasAttr(MaintenanceAwareConnectionWatchdog.REBIND_ATTRIBUTE)
				|| channel.attr(MaintenanceAwareConnectionWatchdog.REBIND_ATTRIBUTE).get() != RebindState.STARTED;
	}

	/**
	 * Close, reset and connection errors cancel what is buffered here too; commands
	 * already done stay as they are.
	 */
	@Override
	protected List<RedisCommand<?, ?, ?>> drainCommands() {
		List<RedisCommand<?, ?, ?>> drained = super.drainCommands();
		for (RedisCommand<?, ?, ?> command : this.pending.take()) {
			if (!command.isDone()) {
				drained.add(command);
			}
		}
		return drained;
	}

}
