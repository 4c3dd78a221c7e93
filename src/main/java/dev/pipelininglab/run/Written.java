package dev.pipelininglab.run;

import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import dev.pipelininglab.redis.KeySpace;
import org.jspecify.annotations.Nullable;

/**
 * The keys one request may have written so far, as its phases report them (warm-up,
 * set-up, timed passes): what gets an expiry after the request, however it ended, and
 * nothing more. A stopped run of ten million items that wrote 81 keys gives 81 keys an
 * expiry, not ten million; a run over a key space larger than itself gives the keys it
 * walked to. Items are reported before they are sent, so a stop in the middle of a batch
 * still covers the batch that Redis goes on executing.
 */
final class Written {

	/** Key indexes written under each key layout, by its key pattern. */
	private final Map<String, Keys> perItem = new LinkedHashMap<>();

	/** Keys of their own that hold a whole run: a list, a hash, a counter. */
	private final Set<String> oneKeys = new LinkedHashSet<>();

	/**
	 * Items {@code from..to-1} of a pass of {@code spec} under {@code keys} were sent. A
	 * SET with its own {@code ttl} leaves keys that expire anyway; reads write nothing.
	 */
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
					this.perItem.computeIfAbsent(keys.keyPattern(), (pattern) -> new Keys(keys)).indexes);
		}
	}

	/** The one key {@code key} (a list to pop, a hash) was written outside a pass. */
	synchronized void key(String key) {
		this.oneKeys.add(key);
	}

	/**
	 * What was written under {@code keys} is gone again: a warm-up cleared its keys, or
	 * its one key {@code oneKey} (null for none).
	 */
	synchronized void removed(KeySpace keys, @Nullable String oneKey) {
		this.perItem.remove(keys.keyPattern());
		this.oneKeys.remove(oneKey);
	}

	/** Gives every key written an expiry; each key once. */
	void expire(DemoData data, java.time.Duration after) {
		Map<KeySpace, BitSet> perItem = new LinkedHashMap<>();
		Set<String> oneKeys;
		synchronized (this) {
			this.perItem.values().forEach((keys) -> perItem.put(keys.keys, (BitSet) keys.indexes.clone()));
			oneKeys = new LinkedHashSet<>(this.oneKeys);
		}
		perItem.forEach((keys, indexes) -> data.expireKeys(keys, indexes, RunService.SETUP_BATCH, after));
		oneKeys.forEach((key) -> data.expire(key, after));
	}

	/**
	 * Sets in {@code indexes} the key index of every item of {@code from..to-1} that
	 * writes a key: all of them for SET, the SETs of a mix, each through the run's key
	 * walk. What a run writes, and so what it must clear first and expire after.
	 */
	static void keysOf(RunSpec spec, long from, long to, BitSet indexes) {
		Command command = spec.operation().command().forRun(spec.workload());
		Workload workload = spec.workload();
		if (workload.keyWalk() == null && !(command instanceof MixedCommand)) {
			indexes.set(Math.toIntExact(from), Math.toIntExact(to));
			return;
		}
		for (long item = from; item < to; item++) {
			if (command.forItem(item).writes()) {
				indexes.set(Math.toIntExact(workload.keyIndex(command.keyItem(item))));
			}
		}
	}

	/** The keys a pass of {@code spec} writes, items {@code 0..count-1}. */
	static BitSet keysOf(RunSpec spec) {
		BitSet indexes = new BitSet();
		keysOf(spec, 0, spec.count(), indexes);
		return indexes;
	}

	private record Keys(KeySpace keys, BitSet indexes) {

		Keys(KeySpace keys) {
			this(keys, new BitSet());
		}

	}

}
