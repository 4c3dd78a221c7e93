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
 * A Lettuce endpoint that hands a flush to Netty as one message: profiles showed
 * Lettuce's per-command hand-over, not Redis, as the limit of pipelined SETs.
 */
class BatchWritingEndpoint extends DefaultEndpoint {

	// A bounded request queue needs Lettuce's own count of buffered commands.
	private final boolean batching;

	private volatile boolean autoFlush = true;

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

	@Override
	public <K, V, T> RedisCommand<K, V, T> write(RedisCommand<K, V, T> command) {
		// Joins the batch without Lettuce's per-command writer lock and channel attribute
		// lookups.
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
			super.flushCommands();
			return;
		}
		List<RedisCommand<?, ?, ?>> batch = doExclusive(this.pending::take);
		if (batch.isEmpty()) {
			return;
		}
		PendingCommands.writeAsOne(channel, batch);
	}

	static boolean writable(@Nullable Channel channel) {
		if (channel == null || !channel.isActive()) {
			return false;
		}
		return !channel.hasAttr(MaintenanceAwareConnectionWatchdog.REBIND_ATTRIBUTE)
				|| channel.attr(MaintenanceAwareConnectionWatchdog.REBIND_ATTRIBUTE).get() != RebindState.STARTED;
	}

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
