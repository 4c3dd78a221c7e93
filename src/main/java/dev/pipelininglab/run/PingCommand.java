package dev.pipelininglab.run;

import dev.pipelininglab.redis.Ping;
import dev.pipelininglab.redis.Topology;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * PING: no key at all, the command the Redis docs' own pipelining benchmark and the
 * go-redis example use.
 */
final class PingCommand extends Command {

	PingCommand() {
		super("PING", false);
	}

	@Override
	boolean keyed() {
		return false;
	}

	@Override
	boolean carriesValues() {
		return false;
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		Ping.once(connection);
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		tally.reply(template.execute((RedisCallback<@Nullable String>) Ping::once));
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.ping();
	}

	@Override
	String nodeGroupedUnsupported() {
		return "PING has no key, so no master to group it by";
	}

	@Override
	String multiKeyUnsupported(RunSpec spec) {
		return "PING has no multi-key form";
	}

	@Override
	String hashTagUnsupported(RunSpec spec, Topology topology) {
		return "PING has no keys";
	}

	@Override
	String script() {
		return "for i = 1, tonumber(ARGV[1]) do redis.call('PING') end return tonumber(ARGV[1])";
	}

	@Override
	int scriptKeyCount(int size) {
		return 0;
	}

	@Override
	byte[][] scriptArguments(Pass pass, long from, long to) {
		return new byte[][] { ScriptRunner.bytes(to - from) };
	}

	@Override
	void countScript(@Nullable Object reply, int size, Tally tally) {
		for (int i = 0; i < size; i++) {
			tally.value("PONG");
		}
	}

	@Override
	@Nullable Footprint footprint(RunSpec base, int variants, boolean prepared) {
		return null;
	}

	@Override
	Replies replies(Tally tally) {
		return new Replies(null, null, null, null, tally.values());
	}

	@Override
	boolean readsOnly() {
		return true;
	}

}
