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
final class ZaddCommand extends Command {

	ZaddCommand() {
		super("ZADD", true, KeySpace::sortedSetKey);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.zSetCommands().zAdd(pass.keyBytes(item), item, pass.valueBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		template.opsForZSet().add(pass.key(item), pass.value(item), item);
		tally.value(null);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.zadd(key, item, pass.valueBytes(item));
	}

	@Override
	void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally) {
		Set<Tuple> members = new LinkedHashSet<>((int) (to - from) * 2);
		for (long i = from; i < to; i++) {
			members.add(Tuple.of(pass.valueBytes(i), (double) i));
		}
		asOneCommand(template, to - from, tally,
				(connection) -> connection.zSetCommands().zAdd(pass.keyBytes(), members));
	}

	@Override
	String multiKeyForm() {
		return "one ZADD with many arguments per batch";
	}

	@Override
	String script() {
		return "for i = 1, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end return #ARGV / 2";
	}

	@Override
	byte[][] scriptArguments(Pass pass, long from, long to) {
		int size = (int) (to - from);
		byte[][] keysAndArgs = new byte[1 + size * 2][];
		keysAndArgs[0] = pass.keyBytes();
		for (int i = 0; i < size; i++) {
			keysAndArgs[1 + i * 2] = ScriptRunner.bytes(from + i);
			keysAndArgs[2 + i * 2] = pass.valueBytes(from + i);
		}
		return keysAndArgs;
	}

	@Override
	boolean verifies() {
		return true;
	}

	@Override
	void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to) {
		for (long i = from; i < to; i++) {
			connection.zSetCommands().zScore(key, keys.valueBytes(i, valueSize));
		}
	}

	@Override
	boolean matches(@Nullable Object value, byte[] expected, long item) {
		return (value instanceof Double score) && score == item;
	}

	@Override
	boolean samplesReply() {
		return false;
	}

	@Override
	Footprint footprint(RunSpec base, int variants, boolean prepared) {
		return new Footprint(MemoryShape.ZSET, base.count());
	}

	@Override
	String oneKeyNote(RunSpec spec, String key) {
		return "ZADD writes one key, " + key + ", a sorted set with " + spec.count()
				+ " members scored by their index, not " + spec.count() + " keys";
	}

}
