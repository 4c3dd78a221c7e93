package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What one {@link Operation} sends and how its replies count: a core for the modes that
 * send item by item, and a capability for each mode or phase that asks more (why a mode
 * cannot send a command without it is in {@link Operation#lacks}).
 */
abstract class Command {

	private final String name;

	private final boolean writes;

	private final @Nullable Function<KeySpace, String> oneKey;

	/** {@code oneKey} names the one key every item works on; null for a key per item. */
	Command(String name, boolean writes, @Nullable Function<KeySpace, String> oneKey) {
		this.name = name;
		this.writes = writes;
		this.oneKey = oneKey;
	}

	final String name() {
		return this.name;
	}

	final @Nullable String key(KeySpace keys) {
		return (this.oneKey != null) ? this.oneKey.apply(keys) : null;
	}

	final boolean writes() {
		return this.writes;
	}

	final boolean keyPerItem() {
		return this.oneKey == null && keyed();
	}

	final boolean writesKeyPerItem() {
		return keyPerItem() && this.writes;
	}

	boolean keyed() {
		return true;
	}

	boolean carriesValues() {
		return true;
	}

	/** Replicas may serve it; RPOP reads but removes, so its replicas replay it. */
	final boolean readsOnly() {
		return !this.writes && this.oneKey == null;
	}

	/** A mix takes the run's ratio. */
	Command forRun(Workload workload) {
		return this;
	}

	/** A mix picks SET or GET per item. */
	Command forItem(long item) {
		return this;
	}

	/** A mix's GET reads an earlier SET's key. */
	long keyItem(long item) {
		return item;
	}

	/** A write's OK, count or flag is no value to sample; raw replies show as text. */
	void count(@Nullable Object reply, Tally tally) {
		if (this.writes) {
			tally.value(null);
		}
		else {
			tally.reply(text(reply));
		}
	}

	static @Nullable Object text(@Nullable Object reply) {
		return (reply instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : reply;
	}

	/** Queues (in a pipeline or a transaction) or sends item {@code item}'s command. */
	abstract void send(RedisConnection connection, Pass pass, long item);

	abstract void loop(StringRedisTemplate template, Pass pass, long item, Tally tally);

	/** {@code key} is {@code pass.keyBytes(item)}, which the caller may already hold. */
	abstract RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key);

	/** {@code key} if any, then each column's argument of every item in turn. */
	@SafeVarargs
	static byte[][] arguments(byte @Nullable [] key, long from, long to, LongFunction<byte[]>... columns) {
		int size = (int) (to - from);
		int head = (key != null) ? 1 : 0;
		byte[][] arguments = new byte[head + size * columns.length][];
		if (key != null) {
			arguments[0] = key;
		}
		for (int c = 0; c < columns.length; c++) {
			for (int i = 0; i < size; i++) {
				arguments[head + c * size + i] = columns[c].apply(from + i);
			}
		}
		return arguments;
	}

	/** Its one key absent, or the keys a pass writes: where every variant starts. */
	void prepare(RunKeys data, RunSpec spec, KeySpace keys, int setupBatch, RunObserver observer) {
		clear(data, keys, (items) -> Written.keysOf(spec, 0, spec.count(), items), setupBatch, observer, true);
	}

	boolean showsPreparing() {
		return writesKeyPerItem();
	}

	void prepareWarmUp(RunKeys data, KeySpace keys, long count, int setupBatch, int valueSize) {
	}

	/** The warm-up has just written its keys: no need to ask whether they exist. */
	final void clearWarmUp(RunKeys data, KeySpace keys, long count, int setupBatch) {
		clear(data, keys, (items) -> items.set(0, Math.toIntExact(count)), setupBatch, RunObserver.NONE, false);
	}

	/**
	 * {@code items} marks the key indexes to delete, asked only for a key per item;
	 * {@code probe}: first ask whether any exists (a first pass deletes nothing).
	 */
	private void clear(RunKeys data, KeySpace keys, Consumer<BitSet> items, int setupBatch, RunObserver observer,
			boolean probe) {
		String key = key(keys);
		if (key != null) {
			data.delete(key);
		}
		else if (writesKeyPerItem()) {
			BitSet indexes = new BitSet();
			items.accept(indexes);
			data.deleteKeys(keys, indexes, setupBatch, observer, probe);
		}
	}

	/** For the memory preflight; null when the items take nothing worth counting. */
	@Nullable Footprint footprint(RunSpec base, int variants, boolean prepared) {
		return null;
	}

	/**
	 * A write's acknowledgements; a read's replies by kind (hits, pops, PONGs) where it
	 * has them.
	 */
	RunResult.Counts counts(Tally tally, @Nullable Long verified) {
		return new RunResult.Counts(this.writes ? tally.values() : null, verified, null, null, null, null, null, null);
	}

	@Nullable String nothingFound() {
		return null;
	}

	@Nullable String oneKeyNote(RunSpec spec, String key) {
		return null;
	}

	/** The memory a run's items take, for the safety preflight. */
	record Footprint(MemoryShape shape, long items) {
	}

	/** One multi-key or multi-argument command per batch (variant multi-key). */
	interface MultiKey {

		void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally);

		/** The multi-key command a cluster splits by slot (MSET, MGET), or null. */
		default @Nullable String multiKeyName() {
			return null;
		}

		/** For the one-key note. */
		default @Nullable String multiKeyForm() {
			return null;
		}

	}

	/** A constant Lua script per batch (variant script). */
	interface Scripted {

		String script();

		/** The script's keys, then its arguments. */
		byte[][] scriptArguments(Pass pass, long from, long to);

		default ReturnType scriptReturns() {
			return ReturnType.INTEGER;
		}

		/** A list of the values read or popped, else an acknowledgement per item. */
		default void countScript(@Nullable Object reply, int size, Tally tally) {
			if (scriptReturns() == ReturnType.MULTI) {
				MultiKeyRunner.countAll((List<?>) reply, size, tally);
			}
			else {
				tally.acknowledged(size);
			}
		}

	}

	interface Reactive {

		/** A read that finds nothing answers {@link ReactiveRunner#NIL}. */
		Mono<?> reactive(ReactiveRedisTemplate<byte[], byte[]> template, Pass pass, long item);

	}

	/** What the run wrote is read back and matched afterwards. */
	interface Verified {

		/**
		 * Queues the reads of items {@code from..to-1} of a run's one key ({@code key});
		 * a key per item is read by {@link RunKeys#verify}, with GETEX where that also
		 * gives it the lab's expiry.
		 */
		default void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from,
				long to) {
			throw new IllegalStateException("a key per item is read back by RunKeys");
		}

		default boolean matches(@Nullable Object value, byte[] expected, long item) {
			return Arrays.equals(RunKeys.bytes(value), expected);
		}

		default long readBackItem(long index, long count) {
			return index;
		}

		default long readBackCount(long count) {
			return count;
		}

		/** A flag or a score is not a value to sample. */
		default boolean samplesReply() {
			return true;
		}

	}

	/** {@code ttl=} applies. */
	interface Expiring {

	}

	/** Reads keys a comparison writes first. */
	interface Prepared {

	}

}
