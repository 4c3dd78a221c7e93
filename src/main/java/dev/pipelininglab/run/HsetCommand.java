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
final class HsetCommand extends CollectionCommand {

	HsetCommand() {
		super("HSET", KeySpace::hashKey, MemoryShape.HASH, (count) -> "with " + count + " fields (field:<i>)",
				(pass) -> pass.keys()::fieldBytes);
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
	void sendBatch(RedisConnection connection, Pass pass, long from, long to) {
		Map<byte[], byte[]> fields = new LinkedHashMap<>((int) (to - from) * 2);
		for (long i = from; i < to; i++) {
			fields.put(pass.keys().fieldBytes(i), pass.valueBytes(i));
		}
		connection.hashCommands().hMSet(pass.keyBytes(), fields);
	}

	@Override
	public String multiKeyForm() {
		return "one HMSET (HSET with many field-value pairs) per batch";
	}

	@Override
	public void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to) {
		for (long item = from; item < to; item++) {
			connection.hashCommands().hGet(key, keys.fieldBytes(item));
		}
	}

}
