package dev.pipelininglab.run;

import java.time.Duration;
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

	void expire(DemoData data, Duration after) {
		Map<KeySpace, BitSet> perItem = new LinkedHashMap<>();
		Set<String> oneKeys;
		synchronized (this) {
			this.perItem.values().forEach((keys) -> perItem.put(keys.keys, (BitSet) keys.indexes.clone()));
			oneKeys = new LinkedHashSet<>(this.oneKeys);
		}
		perItem.forEach((keys, indexes) -> data.expireKeys(keys, indexes, RunService.SETUP_BATCH, after));
		oneKeys.forEach((key) -> data.expire(key, after));
	}

	/** The key indexes items {@code from..to-1} write, through the key walk. */
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

	private record Keys(KeySpace keys, BitSet indexes) {
	}

}
