package dev.pipelininglab.run;

import java.util.stream.LongStream;

import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/** GET: one key per item, the keys a SET run or the lab's set-up wrote. */
final class GetCommand extends Command
		implements Command.MultiKey, Command.Scripted, Command.Reactive, Command.Prepared {

	GetCommand() {
		super("GET", false, null);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.stringCommands().get(pass.keyBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		tally.reply(template.opsForValue().get(pass.key(item)));
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.get(key);
	}

	@Override
	public void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally) {
		MultiKeyRunner.countAll(
				template.opsForValue().multiGet(LongStream.range(from, to).mapToObj(pass::key).toList()), to - from,
				tally);
	}

	@Override
	public String multiKeyName() {
		return "MGET";
	}

	@Override
	public String script() {
		return "local values = {} for i, key in ipairs(KEYS) do values[i] = redis.call('GET', key) end"
				+ " return values";
	}

	@Override
	public byte[][] scriptArguments(Pass pass, long from, long to) {
		return arguments(null, from, to, pass::keyBytes);
	}

	@Override
	public ReturnType scriptReturns() {
		return ReturnType.MULTI;
	}

	@Override
	public Mono<?> reactive(ReactiveRedisTemplate<byte[], byte[]> template, Pass pass, long item) {
		return template.opsForValue().get(pass.keyBytes(item)).cast(Object.class).defaultIfEmpty(ReactiveRunner.NIL);
	}

	@Override
	@Nullable Footprint footprint(RunSpec base, int variants, boolean prepared) {
		// What the comparison prepares: a walk reads only its own keys.
		return prepared ? new Footprint(MemoryShape.STRING, base.workload().distinctKeys(base.count())) : null;
	}

	@Override
	String nothingFound() {
		return "None of the keys existed: every GET answered nil. Write them first (/pipeset/{count}).";
	}

	@Override
	RunResult.Counts counts(Tally tally, @Nullable Long verified) {
		return new RunResult.Counts(null, verified, tally.values(), tally.nils(), null, null, null, null);
	}

}
