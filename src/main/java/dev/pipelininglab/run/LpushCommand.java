package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.StringRedisTemplate;

/** LPUSH: pushes the item's value onto the head of the demo list. */
final class LpushCommand extends CollectionCommand {

	LpushCommand() {
		super("LPUSH", KeySpace::listKey, MemoryShape.LIST, null, null);
	}

	@Override
	String oneKeyNote(RunSpec spec, String key) {
		return "LPUSH pushes " + spec.count() + " elements onto one key, " + key;
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		connection.listCommands().lPush(pass.keyBytes(item), pass.valueBytes(item));
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		count(template.opsForList().leftPush(pass.key(item), pass.value(item)), tally);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return commands.lpush(key, pass.valueBytes(item));
	}

	@Override
	void sendBatch(RedisConnection connection, Pass pass, long from, long to) {
		connection.listCommands().lPush(pass.keyBytes(), arguments(null, from, to, pass::valueBytes));
	}

	@Override
	public void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to) {
		connection.listCommands().lRange(key, from, to - 1);
	}

	@Override
	public long readBackItem(long index, long count) {
		// Pushed onto the head, so the list holds the items last first.
		return count - 1 - index;
	}

	@Override
	Footprint footprint(RunSpec base, int variants, boolean prepared) {
		// A list keeps every push, a request's as well.
		return new Footprint(MemoryShape.LIST, base.itemsPerPass());
	}

}
