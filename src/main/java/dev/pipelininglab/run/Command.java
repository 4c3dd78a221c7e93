package dev.pipelininglab.run;

import java.util.Set;
import java.util.function.Function;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Topology;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What one {@link Operation} sends in every mode and how its replies count, so that the
 * runners ask the operation instead of switching on it; adding an operation is one
 * subclass and its catalogue entry. Modelled on Lettuce's {@code CommandType} and Spring
 * Data Redis' command interfaces: one command, many ways to send it.
 * <p>
 * The defaults fit a command on one key of its own (INCR, HSET, the lists...), or follow
 * from a key per item (SET, GET, the mix: grouped by node, no hash tag beyond the
 * multi-key form, a write prepared and read back key by key); PING, with no key,
 * overrides them. {@link CollectionCommand} holds what the one-key collection writes
 * share.
 */
abstract class Command {

	private final String name;

	private final boolean writes;

	private final @Nullable Function<KeySpace, String> oneKey;

	/** A command with a key of its own per item, or none. */
	Command(String name, boolean writes) {
		this.name = name;
		this.writes = writes;
		this.oneKey = null;
	}

	/** A command whose every item works on the one key {@code oneKey} names. */
	Command(String name, boolean writes, Function<KeySpace, String> oneKey) {
		this.name = name;
		this.writes = writes;
		this.oneKey = oneKey;
	}

	/** The command's name as Redis spells it, upper case. */
	final String name() {
		return this.name;
	}

	/**
	 * The one key every command of the run works on, or null when each item has a key of
	 * its own or there is none.
	 */
	final @Nullable String key(KeySpace keys) {
		return (this.oneKey != null) ? this.oneKey.apply(keys) : null;
	}

	/**
	 * This command as the run with {@code workload} sends it: itself, but a mix of
	 * commands takes the run's ratio.
	 */
	Command forRun(Workload workload) {
		return this;
	}

	/** The command item {@code item} sends: this one, but a mix picks per item. */
	Command forItem(long item) {
		return this;
	}

	/**
	 * The item whose key item {@code item} works on: its own, but a mix's GET reads a key
	 * an earlier SET wrote.
	 */
	long keyItem(long item) {
		return item;
	}

	/**
	 * Whether it only reads, so replicas may serve it and their counts are the run's: GET
	 * and PING. RPOP answers values but removes them, so its replicas replay it.
	 */
	boolean readsOnly() {
		return false;
	}

	/** Whether a comparison writes the keys first, for it to read: GET. */
	boolean readsPreparedKeys() {
		return false;
	}

	/** Whether {@code ttl=} applies: SET's expiry. */
	boolean expires() {
		return false;
	}

	/** Whether comparisons and sweeps take it; RPUSH only fills the list. */
	boolean comparable() {
		return true;
	}

	/**
	 * Puts what a warm-up of {@code count} items needs under {@code keys} before it runs:
	 * nothing by default, RPOP a list to pop.
	 */
	void prepareWarmUp(DemoData data, KeySpace keys, long count, int setupBatch, int valueSize) {
	}

	/** Whether items send different commands, so the loop times each command apart. */
	boolean mixesCommands() {
		return false;
	}

	/** How many items of a run of {@code count} write something to read back. */
	long readBackCount(long count) {
		return count;
	}

	/**
	 * What a mix reports of its SETs and GETs apart, or null for a run of one command.
	 * @param outcome the shown pass: what each client sent
	 * @param tally the shown pass's replies
	 * @param seconds the shown pass's time
	 * @param loopLatency the loop: latency per command, else null
	 */
	RunResult.@Nullable Mix mix(Clients.Outcome outcome, Tally tally, double seconds,
			java.util.@Nullable Map<String, Latency> loopLatency) {
		return null;
	}

	/**
	 * Removes what a warm-up of {@code count} items wrote under {@code keys}: the one key
	 * by default.
	 */
	void clearWarmUp(DemoData data, KeySpace keys, long count, int setupBatch) {
		String key = key(keys);
		if (key != null) {
			data.delete(key);
		}
	}

	/** Whether each item has a key of its own (SET, GET, mixed), not one run-wide key. */
	final boolean keyPerItem() {
		return this.oneKey == null && keyed();
	}

	/** Whether items have keys at all: PING has none. */
	boolean keyed() {
		return true;
	}

	/** Whether the command carries values, so {@code valueSize} applies. */
	boolean carriesValues() {
		return true;
	}

	/** Whether it writes, so its acknowledged commands are reported as written. */
	final boolean writes() {
		return this.writes;
	}

	/**
	 * Counts one reply. A write answers OK, a count or a flag: it is an acknowledgement,
	 * not a value worth sampling; a read's reply is sampled, nil counted as such.
	 */
	void count(@Nullable Object reply, Tally tally) {
		if (writes()) {
			tally.value(null);
		}
		else {
			tally.reply(reply);
		}
	}

	/**
	 * Queues (in a pipeline or a transaction) or sends item {@code item}'s command on a
	 * byte-level connection.
	 */
	abstract void send(RedisConnection connection, Pass pass, long item);

	/** Sends item {@code item}'s command as one blocking template call and counts it. */
	abstract void loop(StringRedisTemplate template, Pass pass, long item, Tally tally);

	/**
	 * Writes item {@code item}'s command on Lettuce's async API; {@code key} is the
	 * item's key, {@code pass.keyBytes(item)}, which the caller may already hold.
	 */
	abstract RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key);

	/**
	 * Why variant pipelined-by-node does not send it, or null when it does: items on keys
	 * of their own spread over the masters.
	 */
	@Nullable String nodeGroupedUnsupported() {
		return keyPerItem() ? null : this.name + " works on one key, so a whole batch goes to one master: variant"
				+ " pipelined sends exactly that";
	}

	/** Why the multi-key variant cannot send it, or null when it can. */
	@Nullable String multiKeyUnsupported(RunSpec spec) {
		return null;
	}

	/**
	 * Sends items {@code from} to {@code to} as one multi-key or multi-argument command.
	 */
	void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally) {
		throw new IllegalStateException(multiKeyUnsupported(pass.spec()));
	}

	/**
	 * The multi-key command a cluster splits by slot (MSET, MGET), or null when the
	 * multi-key form works on one key.
	 */
	@Nullable String multiKeyName() {
		return null;
	}

	/**
	 * The commands the multi-key variant makes the servers count: its own, and what a
	 * client sends instead when it splits the batch (Jedis on a cluster sends one command
	 * per key when the keys of an MSET or MGET span slots).
	 */
	final Set<String> multiKeyCommandNames() {
		String multiKey = multiKeyName();
		return (multiKey != null) ? Set.of(multiKey.toLowerCase(java.util.Locale.ROOT), label()) : Set.of(label());
	}

	/**
	 * How the multi-key variant sends a batch, for the one-key note; null for nothing.
	 */
	@Nullable String multiKeyForm() {
		return null;
	}

	/**
	 * Why the hash-tag variant does not send it, or null when it does: with a key per
	 * item, when the multi-key form is sent.
	 */
	@Nullable String hashTagUnsupported(RunSpec spec, Topology topology) {
		return keyPerItem() ? multiKeyUnsupported(spec)
				: this.name + " works on one key already, so its slot is one (variant multi-key)";
	}

	/**
	 * The constant Lua script that runs a batch inside the server, or null when there is
	 * none.
	 */
	abstract @Nullable String script();

	/** Why the script variant cannot send it, beside the cluster; null when it can. */
	@Nullable String scriptUnsupported(RunSpec spec) {
		return null;
	}

	/**
	 * How many of the script's arguments are keys, for a batch of {@code size}: a key per
	 * item, or the one key.
	 */
	int scriptKeyCount(int size) {
		return keyPerItem() ? size : 1;
	}

	/** The script's keys, then its arguments, for items {@code from} to {@code to}. */
	byte[][] scriptArguments(Pass pass, long from, long to) {
		throw new IllegalStateException(scriptUnsupported(pass.spec()));
	}

	ReturnType scriptReturns() {
		return ReturnType.INTEGER;
	}

	/**
	 * Counts the script's one reply for a batch of {@code size}: the values it read or
	 * popped when it returns a list, else an acknowledgement per item.
	 */
	void countScript(@Nullable Object reply, int size, Tally tally) {
		if (scriptReturns() == ReturnType.MULTI) {
			MultiKeyRunner.countAll(ScriptRunner.strings((java.util.List<?>) reply), size, tally);
		}
		else {
			tally.acknowledged(size);
		}
	}

	/** Why the reactive variant does not send it, or null when it does. */
	@Nullable String reactiveUnsupported() {
		return "the reactive variant sends SET and GET, the commands it is compared on";
	}

	/**
	 * Item {@code item}'s command on the reactive template; a read that finds nothing
	 * answers {@link ReactiveRunner#NIL}, as a Flux carries no nulls.
	 */
	Mono<?> reactive(ReactiveRedisTemplate<byte[], byte[]> template, Pass pass, long item) {
		throw new IllegalStateException(reactiveUnsupported());
	}

	/** Puts Redis in the state every variant starts from: keys absent, list filled. */
	void prepare(DemoData data, RunSpec spec, KeySpace keys, int setupBatch, RunObserver observer) {
		String key = key(keys);
		if (key != null) {
			data.delete(key);
		}
	}

	/** Whether preparing shows as a phase of its own: deleting a key per item written. */
	boolean showsPreparing() {
		return writesKeyPerItem();
	}

	/** Whether what the run wrote is read back and matched: a key per item written is. */
	boolean verifies() {
		return writesKeyPerItem();
	}

	/** Whether it writes a key of its own per item: SET, the mix. */
	final boolean writesKeyPerItem() {
		return keyPerItem() && this.writes;
	}

	/**
	 * Queues the read-back of items {@code from} to {@code to}: one reply per item, each
	 * {@link #readBackOne}, or one list for the batch.
	 */
	void readBack(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long from, long to) {
		for (long item = from; item < to; item++) {
			readBackOne(connection, keys, key, valueSize, item);
		}
	}

	/** Queues the read-back of item {@code item}, its one reply. */
	void readBackOne(RedisConnection connection, KeySpace keys, byte[] key, int valueSize, long item) {
		throw new IllegalStateException(this.name + " is not read back");
	}

	/** Whether a read-back reply is what item {@code item} wrote. */
	boolean matches(@Nullable Object value, byte[] expected, long item) {
		return java.util.Arrays.equals(DemoData.bytes(value), expected);
	}

	/** The item the {@code index}-th read-back reply is about. */
	long readBackItem(long index, long count) {
		return index;
	}

	/**
	 * Whether the read-back reply itself is the value to sample; a flag or a score is
	 * not.
	 */
	boolean samplesReply() {
		return true;
	}

	/**
	 * How the run's items sit in Redis for the memory preflight, or null when they take
	 * none worth counting.
	 * @param variants how many variants the comparison runs
	 * @param prepared whether the lab prepares the keys itself
	 */
	abstract @Nullable Footprint footprint(RunSpec base, int variants, boolean prepared);

	/** Whether its one key is a counter, whose gain over the run is what it verified. */
	boolean counts() {
		return false;
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

	String label() {
		return this.name.toLowerCase(java.util.Locale.ROOT);
	}

}
