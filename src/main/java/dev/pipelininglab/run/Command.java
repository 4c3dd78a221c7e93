package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.pipelininglab.redis.KeySpace;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What one {@link Operation} sends and how its replies count. The core is what every mode
 * that sends item by item uses (loop, pipelines, transactions, async, by node); a mode of
 * its own asks for a capability ({@link MultiKey}, {@link Scripted}, {@link Reactive}),
 * and so do a run's phases ({@link Verified}, {@link Expiring}, {@link Prepared}). A
 * command implements only what it does; why a mode cannot send one that lacks what it
 * asks for is written once, in {@link Operation#lacks}. Modelled on Lettuce's
 * {@code CommandType} and Spring Data Redis' command interfaces.
 */
abstract class Command {

	private final String name;

	private final boolean writes;

	private final @Nullable Function<KeySpace, String> oneKey;

	/**
	 * @param oneKey names the one key every item works on; null when each item has a key
	 * of its own, or none
	 */
	Command(String name, boolean writes, @Nullable Function<KeySpace, String> oneKey) {
		this.name = name;
		this.writes = writes;
		this.oneKey = oneKey;
	}

	/** The command's name as Redis spells it, upper case. */
	final String name() {
		return this.name;
	}

	final String label() {
		return this.name.toLowerCase(Locale.ROOT);
	}

	/** The one key every command of the run works on, or null. */
	final @Nullable String key(KeySpace keys) {
		return (this.oneKey != null) ? this.oneKey.apply(keys) : null;
	}

	/** Whether it writes, so its acknowledged commands are reported as written. */
	final boolean writes() {
		return this.writes;
	}

	/** Whether each item has a key of its own (SET, GET, mixed), not one run-wide key. */
	final boolean keyPerItem() {
		return this.oneKey == null && keyed();
	}

	/** Whether it writes a key of its own per item: SET, the mix. */
	final boolean writesKeyPerItem() {
		return keyPerItem() && this.writes;
	}

	/** Whether items have keys at all: PING has none. */
	boolean keyed() {
		return true;
	}

	/** Whether the command carries values, so {@code valueSize} applies. */
	boolean carriesValues() {
		return true;
	}

	/**
	 * Whether it only reads, so replicas may serve it and their counts are the run's: GET
	 * and PING. RPOP answers values but removes them off its one key, so its replicas
	 * replay it.
	 */
	final boolean readsOnly() {
		return !this.writes && this.oneKey == null;
	}

	/** This command as a run with {@code workload} sends it: a mix takes its ratio. */
	Command forRun(Workload workload) {
		return this;
	}

	/** The command item {@code item} sends: this one, but a mix picks per item. */
	Command forItem(long item) {
		return this;
	}

	/**
	 * The item whose key item {@code item} works on: a mix's GET reads an earlier SET's.
	 */
	long keyItem(long item) {
		return item;
	}

	/**
	 * Counts one reply. A write answers OK, a count or a flag: it is an acknowledgement,
	 * not a value worth sampling; a read's reply is sampled, nil counted as such.
	 */
	void count(@Nullable Object reply, Tally tally) {
		if (this.writes) {
			tally.value(null);
		}
		else {
			tally.reply(reply);
		}
	}

	/** Queues (in a pipeline or a transaction) or sends item {@code item}'s command. */
	abstract void send(RedisConnection connection, Pass pass, long item);

	/** Sends item {@code item}'s command as one blocking template call and counts it. */
	abstract void loop(StringRedisTemplate template, Pass pass, long item, Tally tally);

	/**
	 * Writes item {@code item}'s command on Lettuce's async API; {@code key} is
	 * {@code pass.keyBytes(item)}, which the caller may already hold.
	 */
	abstract RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key);

	/**
	 * Puts Redis in the state every variant starts from: its one key absent, or the keys
	 * a pass writes.
	 */
	void prepare(DemoData data, RunSpec spec, KeySpace keys, int setupBatch, RunObserver observer) {
		clear(data, keys, () -> Written.keysOf(spec), setupBatch, observer);
	}

	/** Whether preparing shows as a phase of its own: deleting a key per item written. */
	boolean showsPreparing() {
		return writesKeyPerItem();
	}

	/** Puts what a warm-up of {@code count} items needs before it runs: RPOP a list. */
	void prepareWarmUp(DemoData data, KeySpace keys, long count, int setupBatch, int valueSize) {
	}

	/** Removes what a warm-up of {@code count} items wrote under {@code keys}. */
	final void clearWarmUp(DemoData data, KeySpace keys, long count, int setupBatch) {
		clear(data, keys, () -> {
			BitSet items = new BitSet();
			items.set(0, Math.toIntExact(count));
			return items;
		}, setupBatch, RunObserver.NONE);
	}

	private void clear(DemoData data, KeySpace keys, Supplier<BitSet> items, int setupBatch, RunObserver observer) {
		String key = key(keys);
		if (key != null) {
			data.delete(key);
		}
		else if (writesKeyPerItem()) {
			data.deleteKeys(keys, items.get(), setupBatch, observer);
		}
	}

	/**
	 * How the run's items sit in Redis for the memory preflight, or null when they take
	 * none worth counting.
	 * @param variants how many variants the comparison runs
	 * @param prepared whether the lab prepares the keys itself
	 */
	@Nullable Footprint footprint(RunSpec base, int variants, boolean prepared) {
		return null;
	}

	/** The reply counts the answer reports beside the values: none by default. */
	Replies replies(Tally tally) {
		return Replies.NONE;
	}

	/** Says so when a read or pop found nothing at all, or null. */
	@Nullable String nothingFound() {
		return null;
	}

	/** What a run on its one key {@code key} writes, for the note; null for none. */
	@Nullable String oneKeyNote(RunSpec spec, String key) {
		return null;
	}

	/** Sent as one multi-key or multi-argument command per batch (variant multi-key). */
	interface MultiKey {

		/**
		 * Sends items {@code from} to {@code to} as one command and counts its replies.
		 */
		void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally);

		/** The multi-key command a cluster splits by slot (MSET, MGET), or null. */
		default @Nullable String multiKeyName() {
			return null;
		}

		/** How a batch is sent, for the one-key note; null for nothing. */
		default @Nullable String multiKeyForm() {
			return null;
		}

	}

	/** Sent as a constant Lua script per batch (variant script). */
	interface Scripted {

		String script();

		/**
		 * The script's keys, then its arguments, for items {@code from} to {@code to}.
		 */
		byte[][] scriptArguments(Pass pass, long from, long to);

		default ReturnType scriptReturns() {
			return ReturnType.INTEGER;
		}

		/**
		 * Counts the script's one reply for a batch of {@code size}: the values it read
		 * or popped when it returns a list, else an acknowledgement per item.
		 */
		default void countScript(@Nullable Object reply, int size, Tally tally) {
			if (scriptReturns() == ReturnType.MULTI) {
				MultiKeyRunner.countAll(ScriptRunner.strings((List<?>) reply), size, tally);
			}
			else {
				tally.acknowledged(size);
			}
		}

	}

	/** Sent on the reactive template (variant reactive). */
	interface Reactive {

		/**
		 * Item {@code item}'s command; a read that finds nothing answers
		 * {@link ReactiveRunner#NIL}.
		 */
		Mono<?> reactive(ReactiveRedisTemplate<byte[], byte[]> template, Pass pass, long item);

	}

	/** What the run wrote is read back and matched afterwards. */
	interface Verified {

		/** Queues the read-back of items {@code from} to {@code to}. */
		void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to);

		/** Whether a read-back reply is what item {@code item} wrote. */
		default boolean matches(@Nullable Object value, byte[] expected, long item) {
			return Arrays.equals(DemoData.bytes(value), expected);
		}

		/** The item the {@code index}-th read-back reply is about. */
		default long readBackItem(long index, long count) {
			return index;
		}

		/** How many items of a run of {@code count} write something to read back. */
		default long readBackCount(long count) {
			return count;
		}

		/**
		 * Whether the read-back reply itself is the value to sample; a flag or a score is
		 * not.
		 */
		default boolean samplesReply() {
			return true;
		}

	}

	/** {@code ttl=} applies: SET's expiry. */
	interface Expiring {

	}

	/** Reads keys a comparison writes first: GET. */
	interface Prepared {

	}

}
