package dev.pipelininglab.run;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Holds a client to an offered rate: a round trip is due at {@code (items before + its
 * items) / rate} after the start, and its latency is taken from then, not from when it
 * left, so a stall shows in every command due during it (no coordinated omission;
 * docs/variants.md).
 */
record Pacer(double nanosPerItem, long origin) {

	/** The longest park between cancellation checks while waiting for a turn. */
	private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	static Pacer of(int rate, int clients, long now) {
		return new Pacer(1e9 * clients / rate, now);
	}

	/** Answers the intended send time, which latency is taken from. */
	long awaitTurn(long itemsSent, long items, RunObserver observer) {
		long due = due(itemsSent, items);
		for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
			RunCancelledException.throwIf(observer);
			LockSupport.parkNanos(Math.min(wait, CHECK_NANOS));
		}
		return due;
	}

	long due(long itemsSent, long items) {
		return this.origin + (long) ((itemsSent + items) * this.nanosPerItem);
	}

}
