package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.StringRedisTemplate;

/** SADD: adds the item's value to one set. */
final class SaddCommand extends Command {

	SaddCommand() {
		super("SADD", true, KeySpace::setKey);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.setCommands().sAdd(pass.keyBytes(item), pass.valueBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		template.opsForSet().add(pass.key(item), pass.value(item));
		tally.value(null);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.sadd(key, pass.valueBytes(item));
	}

	@Override
	void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally) {
		byte[][] values = MultiKeyRunner.values(pass, from, to);
		asOneCommand(template, to - from, tally,
				(connection) -> connection.setCommands().sAdd(pass.keyBytes(), values));
	}

	@Override
	String multiKeyForm() {
		return "one SADD with many arguments per batch";
	}

	@Override
	String script() {
		return "for i, member in ipairs(ARGV) do redis.call('SADD', KEYS[1], member) end return #ARGV";
	}

	@Override
	byte[][] scriptArguments(Pass pass, long from, long to) {
		return ScriptRunner.keyAndValues(pass, from, to);
	}

	@Override
	boolean verifies() {
		return true;
	}

	@Override
	void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to) {
		for (long i = from; i < to; i++) {
			connection.setCommands().sIsMember(key, keys.valueBytes(i, valueSize));
		}
	}

	@Override
	boolean matches(@Nullable Object value, byte[] expected, long item) {
		return Boolean.TRUE.equals(value);
	}

	@Override
	boolean samplesReply() {
		return false;
	}

	@Override
	Footprint footprint(RunSpec base, int variants, boolean prepared) {
		return new Footprint(MemoryShape.SET, base.count());
	}

	@Override
	String oneKeyNote(RunSpec spec, String key) {
		return "SADD writes one key, " + key + ", a set with " + spec.count() + " members, not " + spec.count()
				+ " keys";
	}

}
