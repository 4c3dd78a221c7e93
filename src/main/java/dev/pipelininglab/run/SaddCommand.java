package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.StringRedisTemplate;

/** SADD: adds the item's value to one set. */
final class SaddCommand extends CollectionCommand {

	SaddCommand() {
		super("SADD", KeySpace::setKey, MemoryShape.SET, (count) -> "a set with " + count + " members", null);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.setCommands().sAdd(pass.keyBytes(item), pass.valueBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		count(template.opsForSet().add(pass.key(item), pass.value(item)), tally);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.sadd(key, pass.valueBytes(item));
	}

	@Override
	void sendBatch(RedisConnection connection, Pass pass, long from, long to) {
		connection.setCommands().sAdd(pass.keyBytes(), arguments(null, from, to, pass::valueBytes));
	}

	@Override
	public void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to) {
		for (long item = from; item < to; item++) {
			connection.setCommands().sIsMember(key, keys.valueBytes(item, valueSize));
		}
	}

	@Override
	public boolean matches(@Nullable Object value, byte[] expected, long item) {
		return Boolean.TRUE.equals(value);
	}

	@Override
	public boolean samplesReply() {
		return false;
	}

}
