package dev.pipelininglab.run;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongFunction;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.zset.Tuple;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A write that adds each item to one collection under one key (HSET, SADD, ZADD, LPUSH):
 * what they share beside the command itself, then each of the four.
 */
abstract class CollectionCommand extends Command implements Command.MultiKey, Command.Scripted, Command.Verified {

	private final MemoryShape shape;

	private final @Nullable LongFunction<String> holds;

	private final @Nullable Function<Pass, LongFunction<byte[]>> paired;

	/**
	 * @param holds what the one key holds after {@code count} items, for the answer's
	 * note; null for a note of its own
	 * @param paired the argument each value follows (HSET's field, ZADD's score), or null
	 */
	CollectionCommand(String name, Function<KeySpace, String> oneKey, MemoryShape shape,
			@Nullable LongFunction<String> holds, @Nullable Function<Pass, LongFunction<byte[]>> paired) {
		super(name, true, oneKey);
		this.shape = shape;
		this.holds = holds;
		this.paired = paired;
	}

	/** One command with many arguments on the one key: the multi-key variant's form. */
	abstract void sendBatch(RedisConnection connection, Pass pass, long from, long to);

	@Override
	public final void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally) {
		template.execute((RedisCallback<@Nullable Object>) (connection) -> {
			sendBatch(connection, pass, from, to);
			return null;
		});
		tally.acknowledged(to - from);
	}

	@Override
	public String multiKeyForm() {
		return "one " + name() + " with many arguments per batch";
	}

	/** One command per item, as the other variants send them. */
	@Override
	public final String script() {
		String call = "redis.call('" + name() + "', KEYS[1], ";
		return (this.paired != null)
				? "local n = #ARGV / 2 for i = 1, n do " + call + "ARGV[i], ARGV[n + i]) end return n"
				: "for i, value in ipairs(ARGV) do " + call + "value) end return #ARGV";
	}

	@Override
	public final byte[][] scriptArguments(Pass pass, long from, long to) {
		return (this.paired != null) ? arguments(pass.keyBytes(), from, to, this.paired.apply(pass), pass::valueBytes)
				: arguments(pass.keyBytes(), from, to, pass::valueBytes);
	}

	/** One member per item: a run's repeats and requests write the same ones again. */
	@Override
	Footprint footprint(RunSpec base, int variants, boolean prepared) {
		return new Footprint(this.shape, base.count());
	}

	@Override
	@Nullable String oneKeyNote(RunSpec spec, String key) {
		return (this.holds != null) ? name() + " writes one key, " + key + ", " + this.holds.apply(spec.count())
				+ ", not " + spec.count() + " keys" : null;
	}

	/** HSET: sets field {@code field:<i>} of one hash to the item's value. */
	static final class Hset extends CollectionCommand {

		Hset() {
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

	/** SADD: adds the item's value to one set. */
	static final class Sadd extends CollectionCommand {

		Sadd() {
			super("SADD", KeySpace::setKey, MemoryShape.SET, (count) -> "a set with " + count + " members", null);
		}

		@Override
		void send(RedisConnection connection, Pass pass, long item) {
			connection.setCommands().sAdd(pass.keyBytes(item), pass.valueBytes(item));
		}

		@Override
		void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
			count(template.opsForSet().add(pass.key(item), pass.value(item)), tally);
		}

		@Override
		RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
			return commands.sadd(key, pass.valueBytes(item));
		}

		@Override
		void sendBatch(RedisConnection connection, Pass pass, long from, long to) {
			connection.setCommands().sAdd(pass.keyBytes(), arguments(null, from, to, pass::valueBytes));
		}

		@Override
		public void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to) {
			for (long item = from; item < to; item++) {
				connection.setCommands().sIsMember(key, keys.valueBytes(item, valueSize));
			}
		}

		@Override
		public boolean matches(@Nullable Object value, byte[] expected, long item) {
			return Boolean.TRUE.equals(value);
		}

		@Override
		public boolean samplesReply() {
			return false;
		}

	}

	/** ZADD: adds the item's value to one sorted set with the item's index as score. */
	static final class Zadd extends CollectionCommand {

		Zadd() {
			super("ZADD", KeySpace::sortedSetKey, MemoryShape.ZSET,
					(count) -> "a sorted set with " + count + " members scored by their index",
					(pass) -> ScriptRunner::bytes);
		}

		@Override
		void send(RedisConnection connection, Pass pass, long item) {
			connection.zSetCommands().zAdd(pass.keyBytes(item), item, pass.valueBytes(item));
		}

		@Override
		void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
			count(template.opsForZSet().add(pass.key(item), pass.value(item), item), tally);
		}

		@Override
		RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
			return commands.zadd(key, item, pass.valueBytes(item));
		}

		@Override
		void sendBatch(RedisConnection connection, Pass pass, long from, long to) {
			Set<Tuple> members = new LinkedHashSet<>((int) (to - from) * 2);
			for (long i = from; i < to; i++) {
				members.add(Tuple.of(pass.valueBytes(i), (double) i));
			}
			connection.zSetCommands().zAdd(pass.keyBytes(), members);
		}

		@Override
		public void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to) {
			for (long item = from; item < to; item++) {
				connection.zSetCommands().zScore(key, keys.valueBytes(item, valueSize));
			}
		}

		@Override
		public boolean matches(@Nullable Object value, byte[] expected, long item) {
			return (value instanceof Double score) && score == item;
		}

		@Override
		public boolean samplesReply() {
			return false;
		}

	}

	/** LPUSH: pushes the item's value onto the head of the demo list. */
	static final class Lpush extends CollectionCommand {

		Lpush() {
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

}
