package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.StringRedisTemplate;

/** INCR: one counter, so it ends at the number of INCRs sent. */
final class IncrCommand extends Command implements Command.Scripted {

	IncrCommand() {
		super("INCR", true, KeySpace::counterKey);
	}

	@Override
	boolean carriesValues() {
		return false;
	}

	@Override
	void count(@Nullable Object reply, Tally tally) {
		// A write, but the counter's new value is worth showing.
		tally.reply(reply);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.stringCommands().incr(pass.keyBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		tally.reply(template.opsForValue().increment(pass.key(item)));
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.incr(key);
	}

	@Override
	public String script() {
		return "for i = 1, tonumber(ARGV[1]) do redis.call('INCR', KEYS[1]) end return tonumber(ARGV[1])";
	}

	@Override
	public byte[][] scriptArguments(Pass pass, long from, long to) {
		return new byte[][] { pass.keyBytes(), ScriptRunner.bytes(to - from) };
	}

	@Override
	String oneKeyNote(RunSpec spec, String key) {
		return "INCR increments one counter, " + key + ", once per item";
	}

}
