package dev.pipelininglab.run;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a mixed run interleaves SET and GET (docs/api.md): each cycle of
 * {@code writes + reads} items sends {@code writes} SETs, then GETs that take the cycle's
 * SET keys in turn, so a GET reads what the run has just written, as memtier's mixed runs
 * on a filled key space do. Decided by the item's index alone, so every variant and
 * client sends the same sequence.
 */
public record Ratio(int writes, int reads) {

	/** memtier_benchmark's default, {@code --ratio=1:10}. */
	public static final Ratio DEFAULT = new Ratio(1, 10);

	public static final int MAX_SIDE = 1000;

	private static final Pattern FORM = Pattern.compile("([0-9]{1,4}):([0-9]{1,4})");

	public Ratio {
		if (!valid(writes, reads)) {
			throw new IllegalArgumentException("writes and reads must be between 1 and " + MAX_SIDE);
		}
	}

	private static boolean valid(int writes, int reads) {
		return writes >= 1 && reads >= 1 && writes <= MAX_SIDE && reads <= MAX_SIDE;
	}

	public static Optional<Ratio> parse(String text) {
		Matcher matcher = FORM.matcher(text);
		if (!matcher.matches()) {
			return Optional.empty();
		}
		int writes = Integer.parseInt(matcher.group(1));
		int reads = Integer.parseInt(matcher.group(2));
		return valid(writes, reads) ? Optional.of(new Ratio(writes, reads)) : Optional.empty();
	}

	public String label() {
		return this.writes + ":" + this.reads;
	}

	private int cycle() {
		return this.writes + this.reads;
	}

	boolean isWrite(long item) {
		return item % cycle() < this.writes;
	}

	/** A SET's own item, a GET's one of the SETs before it in its cycle. */
	long keyItem(long item) {
		long position = item % cycle();
		if (position < this.writes) {
			return item;
		}
		return item - position + (position - this.writes) % this.writes;
	}

	long writesIn(long count) {
		return (count / cycle()) * this.writes + Math.min(count % cycle(), this.writes);
	}

	long writeItem(long index) {
		return (index / this.writes) * cycle() + index % this.writes;
	}

}
