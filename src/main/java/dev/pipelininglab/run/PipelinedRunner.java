package dev.pipelininglab.run;

import java.util.List;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.NodeConnections;
import dev.pipelininglab.redis.Ping;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisListCommands;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.connection.RedisStringCommands;
import org.springframework.data.redis.connection.SetCondition;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.types.Expiration;
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
		KeySpace keys = pass.keys();
		// The callback receives a proxy of the byte-level RedisConnection, not a
		// StringRedisConnection, so the
		// widely copied "(StringRedisConnection) connection" cast throws
		// ClassCastException on Spring Data Redis
		// 4.1. The byte-level command interfaces are what the proxy really implements.
		List<Object> replies;
		try {
			replies = pass.route().template().executePipelined((RedisCallback<Object>) (connection) -> {
				// Cluster only: no command may be written for a node still being
				// connected (lettuce issues 1111,
				// 2420).
				if (pass.route().connector() == Connector.LETTUCE) {
					NodeConnections.connect(connection, pass.route().lettuce());
				}
				send(connection, pass, keys, from, to);
				return null;
			});
		}
		catch (RedisPipelineException ex) {
			// The rest of the batch ran even though a command failed; count it so the
			// failure report keeps it.
			PipelineFailures.tally(ex, to - from, (reply) -> count(pass, reply, tally), tally);
			throw ex;
		}
		for (Object reply : replies) {
			count(pass, reply, tally);
		}
	}

	static void count(Pass pass, @Nullable Object reply, Tally tally) {
		switch (pass.operation()) {
			// SET answers OK (true); the other writes answer a count or a flag.
			case SET, RPUSH, LPUSH, HSET, SADD, ZADD -> tally.value(null);
			case GET, RPOP, PING, INCR -> tally.reply(reply);
		}
	}

	/**
	 * Queues (in a pipeline or a transaction) or sends the commands of items {@code from}
	 * to {@code to}.
	 */
	static void send(RedisConnection connection, Pass pass, KeySpace keys, long from, long to) {
		switch (pass.operation()) {
			case SET -> {
				RedisStringCommands strings = connection.stringCommands();
				if (pass.spec().ttl() == null) {
					for (long i = from; i < to; i++) {
						strings.set(keys.keyBytes(i), pass.valueBytes(i));
					}
				}
				else {
					Expiration expiration = Expiration.from(pass.spec().ttl());
					for (long i = from; i < to; i++) {
						strings.set(keys.keyBytes(i), pass.valueBytes(i), SetCondition.upsert(), expiration);
					}
				}
			}
			case GET -> {
				RedisStringCommands strings = connection.stringCommands();
				for (long i = from; i < to; i++) {
					strings.get(keys.keyBytes(i));
				}
			}
			case RPOP -> {
				RedisListCommands lists = connection.listCommands();
				byte[] listKey = keys.listKeyBytes();
				for (long i = from; i < to; i++) {
					lists.rPop(listKey);
				}
			}
			case RPUSH -> {
				RedisListCommands lists = connection.listCommands();
				byte[] listKey = keys.listKeyBytes();
				for (long i = from; i < to; i++) {
					lists.rPush(listKey, pass.valueBytes(i));
				}
			}
			case LPUSH -> {
				RedisListCommands lists = connection.listCommands();
				byte[] listKey = keys.listKeyBytes();
				for (long i = from; i < to; i++) {
					lists.lPush(listKey, pass.valueBytes(i));
				}
			}
			case INCR -> {
				byte[] key = pass.keyBytes();
				for (long i = from; i < to; i++) {
					connection.stringCommands().incr(key);
				}
			}
			case HSET -> {
				byte[] key = pass.keyBytes();
				for (long i = from; i < to; i++) {
					connection.hashCommands().hSet(key, keys.fieldBytes(i), pass.valueBytes(i));
				}
			}
			case SADD -> {
				byte[] key = pass.keyBytes();
				for (long i = from; i < to; i++) {
					connection.setCommands().sAdd(key, pass.valueBytes(i));
				}
			}
			case ZADD -> {
				byte[] key = pass.keyBytes();
				for (long i = from; i < to; i++) {
					connection.zSetCommands().zAdd(key, i, pass.valueBytes(i));
				}
			}
			case PING -> {
				for (long i = from; i < to; i++) {
					Ping.once(connection);
				}
			}
		}
	}

}
