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
class PipelinedRunner implements BatchRunner {

	@Override
	public Mode mode() {
		return Mode.PIPELINED;
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		// The callback receives a proxy of the byte-level RedisConnection, not a
		// StringRedisConnection, so the widely copied "(StringRedisConnection)
		// connection" cast throws ClassCastException on Spring Data Redis 4.1. The
		// byte-level command interfaces are what the proxy really implements.
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
			// The rest of the batch ran even though a command failed; count it so the
			// failure report keeps it.
			PipelineFailures.tally(ex, to - from, (reply, index) -> count(pass, from + index, reply, tally), tally);
			throw ex;
		}
		long item = from;
		for (Object reply : replies) {
			count(pass, item++, reply, tally);
		}
	}

	/**
	 * Counts item {@code item}'s reply as its command counts it: in a mix, a SET's
	 * acknowledgement and a GET's value count differently.
	 */
	static void count(Pass pass, long item, @Nullable Object reply, Tally tally) {
		pass.command(item).count(reply, tally);
	}

	/**
	 * Queues (in a pipeline or a transaction) or sends the commands of items {@code from}
	 * to {@code to}, each as its item's command sends it.
	 */
	static void send(RedisConnection connection, Pass pass, long from, long to) {
		for (long i = from; i < to; i++) {
			pass.command(i).send(connection, pass, i);
		}
	}

}
