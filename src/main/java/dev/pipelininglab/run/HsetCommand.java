package dev.pipelininglab.run;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.StringRedisTemplate;

/** HSET: sets field {@code field:<i>} of one hash to the item's value. */
final class HsetCommand extends Command {

	HsetCommand() {
		super("HSET", true, KeySpace::hashKey);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.hashCommands().hSet(pass.keyBytes(item), pass.keys().fieldBytes(item), pass.valueBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		template.opsForHash().put(pass.key(item), pass.keys().field(item), pass.value(item));
		tally.value(null);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.hset(key, pass.keys().fieldBytes(item), pass.valueBytes(item));
	}

	@Override
	void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally) {
		// One command whose arguments carry the whole batch: one batch of values held.
		Map<byte[], byte[]> fields = new LinkedHashMap<>((int) (to - from) * 2);
		for (long i = from; i < to; i++) {
			fields.put(pass.keys().fieldBytes(i), pass.valueBytes(i));
		}
		asOneCommand(template, to - from, tally,
				(connection) -> connection.hashCommands().hMSet(pass.keyBytes(), fields));
	}

	@Override
	String multiKeyForm() {
		return "one HMSET (HSET with many field-value pairs) per batch";
	}

	@Override
	String script() {
		// One command per item inside the server, as the other variants send them; the
		// multi-argument forms are the multi-key variant's.
		return "for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end return #ARGV / 2";
	}

	@Override
	byte[][] scriptArguments(Pass pass, long from, long to) {
		int size = (int) (to - from);
		byte[][] keysAndArgs = new byte[1 + size * 2][];
		keysAndArgs[0] = pass.keyBytes();
		for (int i = 0; i < size; i++) {
			keysAndArgs[1 + i * 2] = pass.keys().fieldBytes(from + i);
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
			connection.hashCommands().hGet(key, keys.fieldBytes(i));
		}
	}

	@Override
	Footprint footprint(RunSpec base, int variants, boolean prepared) {
		return new Footprint(MemoryShape.HASH, base.count());
	}

	@Override
	String oneKeyNote(RunSpec spec, String key) {
		return "HSET writes one key, " + key + ", with " + spec.count() + " fields (field:<i>), not " + spec.count()
				+ " keys";
	}

}
