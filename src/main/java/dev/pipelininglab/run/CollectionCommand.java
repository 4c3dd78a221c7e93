package dev.pipelininglab.run;

import java.util.function.Function;
import java.util.function.LongFunction;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A write that adds each item to one collection under one key (HSET, SADD, ZADD, LPUSH):
 * what they share beside the command itself. The multi-key variant sends a batch as one
 * multi-argument command on the key, the script variant loops over the batch inside the
 * server, the collection is sized by its memory shape, read back item by item and matched
 * afterwards, and the answer notes what the one key holds.
 */
abstract class CollectionCommand extends Command implements Command.MultiKey, Command.Scripted, Command.Verified {

	private final MemoryShape shape;

	private final @Nullable LongFunction<String> holds;

	/**
	 * @param oneKey names the collection's key
	 * @param shape how the collection sits in memory, for the preflight
	 * @param holds what the one key holds after {@code count} items, for the answer's
	 * note; null for a note of its own
	 */
	CollectionCommand(String name, Function<KeySpace, String> oneKey, MemoryShape shape,
			@Nullable LongFunction<String> holds) {
		super(name, true, oneKey);
		this.shape = shape;
		this.holds = holds;
	}

	/**
	 * Sends items {@code from} to {@code to} as one command with many arguments on the
	 * one key: the multi-key variant's form.
	 */
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

	/**
	 * The constant Lua script that sends a batch's commands inside the server, one per
	 * item as the other variants send them (the multi-argument forms are the multi-key
	 * variant's): by default the command on the one key with each value, the arguments
	 * {@link #scriptArguments} gives.
	 */
	@Override
	public String script() {
		return "for i, value in ipairs(ARGV) do redis.call('" + name() + "', KEYS[1], value) end return #ARGV";
	}

	/** The one key, then the value of each item {@code from} to {@code to}. */
	@Override
	public byte[][] scriptArguments(Pass pass, long from, long to) {
		int size = (int) (to - from);
		byte[][] keysAndArgs = new byte[1 + size][];
		keysAndArgs[0] = pass.keyBytes();
		for (int i = 0; i < size; i++) {
			keysAndArgs[1 + i] = pass.valueBytes(from + i);
		}
		return keysAndArgs;
	}

	/**
	 * The one key, then for each item {@code from} to {@code to} the argument
	 * {@code first} gives (a field, a score) and its value.
	 */
	static byte[][] keyAndPairs(Pass pass, long from, long to, LongFunction<byte[]> first) {
		int size = (int) (to - from);
		byte[][] keysAndArgs = new byte[1 + size * 2][];
		keysAndArgs[0] = pass.keyBytes();
		for (int i = 0; i < size; i++) {
			keysAndArgs[1 + i * 2] = first.apply(from + i);
			keysAndArgs[2 + i * 2] = pass.valueBytes(from + i);
		}
		return keysAndArgs;
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

}
