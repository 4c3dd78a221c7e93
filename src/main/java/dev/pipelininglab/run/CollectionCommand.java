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
 * what they share beside the command itself.
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

}
