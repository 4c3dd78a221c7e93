package dev.pipelininglab.run;

import java.util.Objects;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/** PING: no key, as in the Redis docs' pipelining benchmark and go-redis' example. */
final class PingCommand extends Command implements Command.Scripted {

	PingCommand() {
		super("PING", false, null);
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
		once(connection);
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		tally.reply(template.execute((RedisCallback<@Nullable String>) PingCommand::once));
	}

	// One PING to one server that joins a pipeline: Spring Data Redis' cluster ping()
	// fans out blocking calls to every node instead.
	static @Nullable String once(RedisConnection connection) {
		if (!(connection instanceof RedisClusterConnection)) {
			return connection.ping();
		}
		return Objects.toString(text(connection.execute("PING")), null);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.ping();
	}

	@Override
	public String script() {
		return "for i = 1, tonumber(ARGV[1]) do redis.call('PING') end return tonumber(ARGV[1])";
	}

	@Override
	public byte[][] scriptArguments(Pass pass, long from, long to) {
		return new byte[][] { ScriptRunner.bytes(to - from) };
	}

	@Override
	public void countScript(@Nullable Object reply, int size, Tally tally) {
		for (int i = 0; i < size; i++) {
			tally.value("PONG");
		}
	}

	@Override
	RunResult.Counts counts(Tally tally, @Nullable Long verified) {
		return new RunResult.Counts(null, verified, null, null, null, null, tally.values(), null);
	}

}
