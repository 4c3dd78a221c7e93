package dev.pipelininglab.run;

import java.util.List;

import dev.pipelininglab.redis.KeySpace;

import org.springframework.data.redis.connection.RedisListCommands;
import org.springframework.data.redis.connection.RedisStringCommands;
import org.springframework.data.redis.connection.SetCondition;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.stereotype.Component;

/**
 * One {@code executePipelined} call per batch. With connection pooling each call borrows the same pooled
 * connection back, so a run of many batches stays on one TCP connection.
 */
@Component
class PipelinedRunner implements BatchRunner {

	private final StringRedisTemplate template;

	private final KeySpace keys;

	PipelinedRunner(StringRedisTemplate template, KeySpace keys) {
		this.template = template;
		this.keys = keys;
	}

	@Override
	public Mode mode() {
		return Mode.PIPELINED;
	}

	@Override
	public boolean supports(Operation operation) {
		return true;
	}

	@Override
	public int perRoundTrip(int batchSize) {
		return batchSize;
	}

	@Override
	public void warmUp() {
		this.template.executePipelined((RedisCallback<Object>) (connection) -> {
			connection.ping();
			return null;
		});
	}

	@Override
	public void run(RunSpec spec, long from, long to, Tally tally) {
		// The callback receives a proxy of the byte-level RedisConnection, not a StringRedisConnection, so the
		// widely copied "(StringRedisConnection) connection" cast throws ClassCastException on Spring Data Redis
		// 4.1. The byte-level command interfaces are what the proxy really implements.
		List<Object> replies = this.template.executePipelined((RedisCallback<Object>) (connection) -> {
			switch (spec.operation()) {
				case SET -> set(connection.stringCommands(), spec, from, to);
				case GET -> {
					RedisStringCommands strings = connection.stringCommands();
					for (long i = from; i < to; i++) {
						strings.get(this.keys.keyBytes(i));
					}
				}
				case RPOP -> {
					RedisListCommands lists = connection.listCommands();
					byte[] listKey = this.keys.listKeyBytes();
					for (long i = from; i < to; i++) {
						lists.rPop(listKey);
					}
				}
				case RPUSH -> {
					RedisListCommands lists = connection.listCommands();
					byte[] listKey = this.keys.listKeyBytes();
					for (long i = from; i < to; i++) {
						lists.rPush(listKey, this.keys.valueBytes(i));
					}
				}
			}
			return null;
		});
		tallyReplies(spec.operation(), replies, tally);
	}

	private void set(RedisStringCommands strings, RunSpec spec, long from, long to) {
		if (spec.ttl() == null) {
			for (long i = from; i < to; i++) {
				strings.set(this.keys.keyBytes(i), this.keys.valueBytes(i));
			}
			return;
		}
		Expiration expiration = Expiration.from(spec.ttl());
		for (long i = from; i < to; i++) {
			strings.set(this.keys.keyBytes(i), this.keys.valueBytes(i), SetCondition.upsert(), expiration);
		}
	}

	private static void tallyReplies(Operation operation, List<Object> replies, Tally tally) {
		for (Object reply : replies) {
			switch (operation) {
				// SET answers OK (true); RPUSH answers the new list length.
				case SET, RPUSH -> tally.value(null);
				case GET, RPOP -> {
					if (reply instanceof String value) {
						tally.value(value);
					}
					else {
						tally.nil();
					}
				}
			}
		}
	}

}
