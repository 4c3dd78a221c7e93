package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.StringRedisTemplate;

/** RPUSH: how the lab fills the list RPOP pops, so it only ever adds, item by item. */
final class RpushCommand extends Command {

	RpushCommand() {
		super("RPUSH", true, KeySpace::listKey);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.listCommands().rPush(pass.keyBytes(item), pass.valueBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		count(template.opsForList().rightPush(pass.key(item), pass.value(item)), tally);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.rpush(key, pass.valueBytes(item));
	}

	@Override
	void prepare(RunKeys data, RunSpec spec, KeySpace keys, int setupBatch, RunObserver observer) {
		// It only adds, to whatever the list holds.
	}

	@Override
	Footprint footprint(RunSpec base, int variants, boolean prepared) {
		// Never emptied between variants or repeats: every one adds its pass.
		return new Footprint(MemoryShape.LIST, base.itemsPerPass() * base.repeat() * variants);
	}

}
