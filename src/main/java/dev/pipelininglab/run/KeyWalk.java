package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Maps each item to a key index as memtier_benchmark's {@code --key-pattern} does
 * (docs/variants.md): a pure function of {@code (seed, item)}, so clients, batches,
 * variants and repeats send the same key sequence without sharing state.
 */
public record KeyWalk(long size, Pattern pattern, long seed) {

	/** memtier's default for its gaussian pattern: the key space spans six deviations. */
	private static final double DEVIATIONS = 6;

	private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

	public KeyWalk {
		if (size < 1) {
			throw new IllegalArgumentException("a key space has at least one key");
		}
	}

	long index(long item) {
		return switch (this.pattern) {
			case SEQUENTIAL -> item % this.size;
			case UNIFORM -> (long) (unit(draw(item, 0)) * this.size);
			case GAUSSIAN -> gaussian(item);
		};
	}

	/** Box-Muller from two draws of the item's own, clamped like memtier's. */
	private long gaussian(long item) {
		// 1 - unit is in (0, 1], so the logarithm stays finite.
		double radius = Math.sqrt(-2 * Math.log(1 - unit(draw(item, 0))));
		double normal = radius * Math.cos(2 * Math.PI * unit(draw(item, 1)));
		double middle = (this.size - 1) / 2.0;
		long index = Math.round(middle + normal * (this.size / DEVIATIONS));
		return Math.max(0, Math.min(this.size - 1, index));
	}

	/** SplitMix64, random access: no item depends on another. */
	private long draw(long item, int which) {
		long z = this.seed + (2 * item + which + 1) * GOLDEN_GAMMA;
		z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
		z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
		return z ^ (z >>> 31);
	}

	/** The top 53 bits as a double in {@code [0, 1)}. */
	private static double unit(long bits) {
		return (bits >>> 11) * 0x1.0p-53;
	}

	public boolean repeatsKeys(long count) {
		return this.pattern != Pattern.SEQUENTIAL || this.size < count;
	}

	/**
	 * For each key index, the last item that wrote it, or -1: what a read-back expects.
	 * Four bytes per key, at most 40 MB at the default {@code lab.limits.max-count}.
	 */
	int[] lastWriters(List<ClientThreads.Reach> ranges) {
		if (this.size > Integer.MAX_VALUE || ranges.stream().anyMatch((range) -> range.to() > Integer.MAX_VALUE)) {
			throw new IllegalArgumentException("a replayed key space holds at most " + Integer.MAX_VALUE + " items");
		}
		int[] last = new int[(int) this.size];
		Arrays.fill(last, -1);
		for (ClientThreads.Reach range : ranges) {
			for (int item = (int) range.from(); item < range.to(); item++) {
				last[(int) index(item)] = item;
			}
		}
		return last;
	}

	long distinct(List<ClientThreads.Reach> ranges) {
		long items = ranges.stream().mapToLong((range) -> range.to() - range.from()).sum();
		if (this.pattern == Pattern.SEQUENTIAL && ranges.size() == 1 && !repeatsKeys(ranges.get(0).to())) {
			return items;
		}
		BitSet seen = new BitSet((int) Math.min(this.size, Integer.MAX_VALUE));
		for (ClientThreads.Reach range : ranges) {
			for (long item = range.from(); item < range.to(); item++) {
				seen.set((int) index(item));
			}
		}
		return seen.cardinality();
	}

	public enum Pattern {

		SEQUENTIAL, UNIFORM, GAUSSIAN;

		public String label() {
			return name().toLowerCase(Locale.ROOT);
		}

		public static Optional<Pattern> fromLabel(String label) {
			return Arrays.stream(values()).filter((pattern) -> pattern.label().equals(label)).findFirst();
		}

	}

}
