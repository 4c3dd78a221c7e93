package dev.pipelininglab.redis.lettuce;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.lettuce.core.protocol.RedisCommand;
import io.netty.channel.Channel;

/** The commands a connection buffered since its last flush, written as one message. */
final class PendingCommands {

	private List<RedisCommand<?, ?, ?>> pending = new ArrayList<>();

	synchronized void add(RedisCommand<?, ?, ?> command) {
		this.pending.add(command);
	}

	synchronized void addAll(Collection<? extends RedisCommand<?, ?, ?>> commands) {
		this.pending.addAll(commands);
	}

	synchronized List<RedisCommand<?, ?, ?>> take() {
		if (this.pending.isEmpty()) {
			return List.of();
		}
		List<RedisCommand<?, ?, ?>> taken = this.pending;
		this.pending = new ArrayList<>(taken.size());
		return taken;
	}

	static void writeAsOne(Channel channel, List<RedisCommand<?, ?, ?>> batch) {
		channel.writeAndFlush(batch).addListener((future) -> {
			if (!future.isSuccess()) {
				batch.forEach((command) -> command.completeExceptionally(future.cause()));
			}
		});
	}

}
