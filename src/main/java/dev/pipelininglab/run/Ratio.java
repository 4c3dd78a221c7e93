package dev.pipelininglab.run;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a mixed run interleaves SET and GET: in every cycle of {@code writes + reads}
 * items, {@code writes} SETs then {@code reads} GETs, decided by the item's index alone
 * so that every variant and every client sends the same sequence.
 * <p>
 * A SET item writes its own key; a GET item reads the key of one of the SETs before it in
 * its cycle (the GETs take them in turn), so a GET reads what the run has just written,
 * as memtier's mixed runs on a filled key space do, and hits unless another client has
 * not got there yet.
 *
 * @param writes SETs per cycle
 * @param reads GETs per cycle
 */
public record Ratio(int writes, int reads) {

	/** memtier_benchmark's default, {@code --ratio=1:10}. */
	public static final Ratio DEFAULT = new Ratio(1, 10);

	/** The most SETs or GETs one cycle may hold. */
	public static final int MAX_SIDE = 1000;

	private static final Pattern FORM = Pattern.compile("([0-9]{1,4}):([0-9]{1,4})");

	public Ratio {
		if (writes < 1 || reads < 1 || writes > MAX_SIDE || reads > MAX_SIDE) {
			throw new IllegalArgumentException("writes and reads must be between 1 and " + MAX_SIDE);
		}
	}

	/** {@code W:R} with both sides between 1 and {@link #MAX_SIDE}, else empty. */
	public static Optional<Ratio> parse(String text) {
		Matcher matcher = FORM.matcher(text);
		if (!matcher.matches()) {
			return Optional.empty();
		}
		int writes = Integer.parseInt(matcher.group(1));
		int reads = Integer.parseInt(matcher.group(2));
		if (writes < 1 || reads < 1 || writes > MAX_SIDE || reads > MAX_SIDE) {
			return Optional.empty();
		}
		return Optional.of(new Ratio(writes, reads));
	}

	/** As written in {@code ratio=}: {@code W:R}. */
	public String label() {
		return this.writes + ":" + this.reads;
	}

	private int cycle() {
		return this.writes + this.reads;
	}

	/** Whether item {@code item} is a SET. */
	boolean isWrite(long item) {
		return item % cycle() < this.writes;
	}

	/**
	 * The item whose key item {@code item} works on: a SET its own, a GET one of the SETs
	 * before it in its cycle.
	 */
	long keyItem(long item) {
		long position = item % cycle();
		if (position < this.writes) {
			return item;
		}
		return item - position + (position - this.writes) % this.writes;
	}

	/** How many of items {@code 0..count-1} are SETs. */
	long writesIn(long count) {
		return (count / cycle()) * this.writes + Math.min(count % cycle(), this.writes);
	}

	/** The {@code index}-th SET item, counted from 0. */
	long writeItem(long index) {
		return (index / this.writes) * cycle() + index % this.writes;
	}

}
