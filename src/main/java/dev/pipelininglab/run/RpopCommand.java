package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.StringRedisTemplate;

/** RPOP: pops one element per item off the demo list, which the lab fills first. */
final class RpopCommand extends Command implements Command.MultiKey, Command.Scripted {

	RpopCommand() {
		super("RPOP", false, KeySpace::listKey);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.listCommands().rPop(pass.keyBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		tally.reply(template.opsForList().rightPop(pass.key(item)));
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.rpop(key);
	}

	@Override
	public void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally) {
		// RPOP key count, Redis 6.2+.
		MultiKeyRunner.countAll(template.opsForList().rightPop(pass.key(from), to - from), to - from, tally);
	}

	@Override
	public String script() {
		return "local popped = {} for i = 1, tonumber(ARGV[1]) do local value = redis.call('RPOP',"
				+ " KEYS[1]) if not value then break end popped[i] = value end return popped";
	}

	@Override
	public byte[][] scriptArguments(Pass pass, long from, long to) {
		return new byte[][] { pass.keyBytes(), ScriptRunner.bytes(to - from) };
	}

	@Override
	public ReturnType scriptReturns() {
		return ReturnType.MULTI;
	}

	@Override
	void prepare(RunKeys data, RunSpec spec, KeySpace keys, int setupBatch, RunObserver observer) {
		data.refillList(keys, spec.itemsPerPass(), setupBatch, spec.valueSize(), observer);
	}

	@Override
	boolean showsPreparing() {
		return true;
	}

	@Override
	void prepareWarmUp(RunKeys data, KeySpace keys, long count, int setupBatch, int valueSize) {
		data.refillList(keys, count, setupBatch, valueSize, RunObserver.NONE);
	}

	@Override
	Footprint footprint(RunSpec base, int variants, boolean prepared) {
		return new Footprint(MemoryShape.LIST, prepared ? base.itemsPerPass() : base.count());
	}

	@Override
	String nothingFound() {
		return "The list was empty: every RPOP answered nil. Fill it first (/listinput/{count}).";
	}

	@Override
	RunResult.Counts counts(Tally tally, @Nullable Long verified) {
		return new RunResult.Counts(null, verified, null, null, tally.values(), tally.nils(), null, null);
	}

}
