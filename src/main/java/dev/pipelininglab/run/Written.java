package dev.pipelininglab.run;

import java.time.Duration;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.pipelininglab.redis.KeySpace;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ExpirationOptions;

/**
 * The keys one request may have written so far, as its phases report them (warm-up,
 * set-up, timed passes): what gets an expiry after the request, however it ended, and
 * nothing more. A stopped run of ten million items that wrote 81 keys gives 81 keys an
 * expiry, not ten million; a run over a key space larger than itself gives the keys it
 * walked to. Items are reported before they are sent, so a stop in the middle of a batch
 * still covers the batch that Redis goes on executing. Keys a read-back already gave
 * their expiry (GETEX) are struck off.
 */
final class Written {

	/** Key indexes written under each key layout, by its key pattern. */
	private final Map<String, Keys> perItem = new LinkedHashMap<>();

	/** Keys of their own that hold a whole run: a list, a hash, a counter. */
	private final Set<String> oneKeys = new LinkedHashSet<>();

	/** Items sent; a SET with its own {@code ttl} leaves no key to expire. */
	synchronized void items(RunSpec spec, KeySpace keys, long from, long to) {
		Command command = spec.operation().command().forRun(spec.workload());
		if (to <= from) {
			return;
		}
		String key = command.key(keys);
		if (key != null) {
			// Written, or popped from a list the lab filled: the lab's key either way.
			this.oneKeys.add(key);
			return;
		}
		if (command.writesKeyPerItem() && spec.ttl() == null) {
			keysOf(spec, from, to,
					this.perItem.computeIfAbsent(keys.keyPattern(), (pattern) -> new Keys(keys, new BitSet())).indexes);
		}
	}

	/** A key of its own (a list to pop, a hash), if any, was written outside a pass. */
	synchronized void key(@Nullable String key) {
		if (key != null) {
			this.oneKeys.add(key);
		}
	}

	/** The read-back gave these keys their expiry: none is needed after the run. */
	synchronized void expired(KeySpace keys, BitSet indexes) {
		Keys written = this.perItem.get(keys.keyPattern());
		if (written != null) {
			written.indexes.andNot(indexes);
		}
	}

	/** A warm-up cleared what it wrote under {@code keys}, and its one key if any. */
	synchronized void removed(KeySpace keys, @Nullable String oneKey) {
		this.perItem.remove(keys.keyPattern());
		this.oneKeys.remove(oneKey);
	}

	/**
	 * {@code result}, the keys left to another to expire unless {@code kept}: a fleet's
	 * leader gives every share its expiry once the fleet's window is over.
	 */
	synchronized <T> T keptFor(T result, boolean kept) {
		if (!kept) {
			this.perItem.clear();
			this.oneKeys.clear();
		}
		return result;
	}

	/**
	 * Every key {@code spec} may write however far it gets, for its record: its one key,
	 * or the items of its share (the whole key space of a key walk), and the keys a
	 * comparison or sweep prepares.
	 */
	static List<KeySpace.Range> reach(RunSpec spec, KeySpace keys, boolean prepared) {
		Command command = spec.operation().command().forRun(spec.workload());
		String key = command.key(keys);
		if (key != null) {
			return List.of(KeySpace.Range.of(key));
		}
		KeyWalk walk = spec.workload().keyWalk();
		long first = spec.workload().first();
		if (command.writesKeyPerItem() && spec.ttl() == null) {
			return List.of((walk != null) ? keys.range(0, walk.size()) : keys.range(first, first + spec.count()));
		}
		return (prepared && spec.operation().needsPreparedData())
				? List.of(keys.range(0, spec.workload().distinctKeys(spec.count()))) : List.of();
	}

	/** What a record's ranges name, for an expiry after its run's instance died. */
	static Written of(List<KeySpace.Range> ranges) {
		Written written = new Written();
		for (KeySpace.Range range : ranges) {
			KeySpace keys = range.keys();
			Long from = range.from();
			Long to = range.to();
			if (from == null || to == null) {
				written.oneKeys.add(range.key());
			}
			else if (keys != null && to > from) {
				written.perItem.computeIfAbsent(range.key(), (pattern) -> new Keys(keys, new BitSet()))
					.indexes()
					.set(Math.toIntExact(from), Math.toIntExact(to));
			}
		}
		return written;
	}

	/** {@code NX} leaves every expiry a key already has, a user's {@code ttl} too. */
	void expire(RunKeys data, Duration after, ExpirationOptions.Condition condition) {
		Map<KeySpace, BitSet> perItem = new LinkedHashMap<>();
		Set<String> oneKeys;
		synchronized (this) {
			this.perItem.values().forEach((keys) -> perItem.put(keys.keys, (BitSet) keys.indexes.clone()));
			oneKeys = new LinkedHashSet<>(this.oneKeys);
		}
		perItem.forEach((keys, indexes) -> data.expireKeys(keys, indexes, RunService.SETUP_BATCH, after, condition));
		oneKeys.forEach((key) -> data.expire(key, after, condition));
	}

	/** The key indexes items {@code from..to-1} write, through the key walk. */
	static void keysOf(RunSpec spec, long from, long to, BitSet indexes) {
		Command command = spec.operation().command().forRun(spec.workload());
		Workload workload = spec.workload();
		if (workload.keyWalk() == null && !(command instanceof MixedCommand)) {
			indexes.set(Math.toIntExact(from), Math.toIntExact(to));
			return;
		}
		KeyWalk walk = workload.keyWalk();
		if (walk != null && walk.pattern() == KeyWalk.Pattern.SEQUENTIAL && command.writes()
				&& !(command instanceof MixedCommand) && to - from >= walk.size()) {
			// A comparison's pass by time cycles its keys: every one of them, not each
			// item.
			indexes.set(0, Math.toIntExact(walk.size()));
			return;
		}
		for (long item = from; item < to; item++) {
			if (command.forItem(item).writes()) {
				indexes.set(Math.toIntExact(workload.keyIndex(command.keyItem(item))));
			}
		}
	}

	private record Keys(KeySpace keys, BitSet indexes) {
	}

}
