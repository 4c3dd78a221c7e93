package dev.pipelininglab.run;

import java.util.LinkedHashSet;
import java.util.Set;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.zset.Tuple;
import org.springframework.data.redis.core.StringRedisTemplate;

/** ZADD: adds the item's value to one sorted set with the item's index as score. */
final class ZaddCommand extends CollectionCommand {

	ZaddCommand() {
		super("ZADD", KeySpace::sortedSetKey, MemoryShape.ZSET,
				(count) -> "a sorted set with " + count + " members scored by their index",
				(pass) -> ScriptRunner::bytes);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.zSetCommands().zAdd(pass.keyBytes(item), item, pass.valueBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		count(template.opsForZSet().add(pass.key(item), pass.value(item), item), tally);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.zadd(key, item, pass.valueBytes(item));
	}

	@Override
	void sendBatch(RedisConnection connection, Pass pass, long from, long to) {
		Set<Tuple> members = new LinkedHashSet<>((int) (to - from) * 2);
		for (long i = from; i < to; i++) {
			members.add(Tuple.of(pass.valueBytes(i), (double) i));
		}
		connection.zSetCommands().zAdd(pass.keyBytes(), members);
	}

	@Override
	public void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to) {
		for (long item = from; item < to; item++) {
			connection.zSetCommands().zScore(key, keys.valueBytes(item, valueSize));
		}
	}

	@Override
	public boolean matches(@Nullable Object value, byte[] expected, long item) {
		return (value instanceof Double score) && score == item;
	}

	@Override
	public boolean samplesReply() {
		return false;
	}

}
