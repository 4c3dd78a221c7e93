package dev.pipelininglab.run;

import java.util.List;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.NodeConnections;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.stereotype.Component;

/**
 * One {@code StringRedisTemplate.executePipelined} call per batch. With connection
 * pooling each call borrows the same pooled connection back, so a run of many batches
 * stays on one TCP connection.
 */
@Component
class PipelinedRunner extends BatchRunner {

	PipelinedRunner() {
		super(Mode.PIPELINED);
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		// The callback gets a proxy of the byte-level RedisConnection: the widely copied
		// "(StringRedisConnection) connection" cast throws on Spring Data Redis 4.1.
		List<Object> replies;
		try {
			replies = pass.route().template().executePipelined((RedisCallback<@Nullable Object>) (connection) -> {
				// Cluster only: no command may be written for a node still being
				// connected (lettuce issues 1111, 2420).
				if (pass.route().connector() == Connector.LETTUCE) {
					NodeConnections.connect(connection, pass.route().lettuce());
				}
				send(connection, pass, from, to);
				return null;
			});
		}
		catch (RedisPipelineException ex) {
			// The rest of the batch ran though a command failed: the report keeps it.
			PipelineFailures.tally(ex, to - from, (reply, index) -> pass.command(from + index).count(reply, tally),
					tally);
			throw ex;
		}
		pass.count(from, replies, tally);
	}

	/** Each item as its own command sends it (a mix's SET or GET). */
	static void send(RedisConnection connection, Pass pass, long from, long to) {
		for (long i = from; i < to; i++) {
			pass.command(i).send(connection, pass, i);
		}
	}

}
