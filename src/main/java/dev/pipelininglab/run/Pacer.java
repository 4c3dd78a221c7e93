package dev.pipelininglab.run;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Holds a client to an offered rate: a round trip is due once the rate has allowed its
 * items, at {@code (items sent before + its items) / rate} seconds after the client
 * started, so a run of N items takes N / rate and its achieved rate is the one asked, not
 * one round trip more. Latency is taken from that intended send time, not from when the
 * command really left: a stall then delays every command due during it, and they all show
 * it in the percentiles, instead of the one command that met the stall (coordinated
 * omission, as wrk2 and HdrHistogram describe it).
 */
final class Pacer {

	/** The longest park between cancellation checks while waiting for a turn. */
	private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final double nanosPerItem;

	private final long origin;

	private Pacer(double nanosPerItem, long origin) {
		this.nanosPerItem = nanosPerItem;
		this.origin = origin;
	}

	/**
	 * A pacer for one of {@code clients} sharing {@code rate}, starting at {@code now}.
	 */
	static Pacer of(int rate, int clients, long now) {
		return new Pacer(1e9 * clients / rate, now);
	}

	/**
	 * Waits until a round trip of {@code items} after {@code itemsSent} is due.
	 * @return its intended send time ({@link System#nanoTime()})
	 */
	long awaitTurn(long itemsSent, long items, RunObserver observer) {
		long due = due(itemsSent, items);
		for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
			if (observer.cancelled()) {
				throw new RunCancelledException();
			}
			LockSupport.parkNanos(Math.min(wait, CHECK_NANOS));
		}
		return due;
	}

	/**
	 * When a round trip of {@code items} after {@code itemsSent} is due
	 * ({@link System#nanoTime()}).
	 */
	long due(long itemsSent, long items) {
		return this.origin + (long) ((itemsSent + items) * this.nanosPerItem);
	}

}
