package dev.pipelininglab.run;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Notices, during a timed pass, that the whole process was not running: a thread that
 * asks to wake every {@link #TICK_NANOS} and wakes far later was stopped with every other
 * thread (a stop-the-world GC, a SIGSTOP, a suspended VM, a machine too busy to schedule
 * the JVM). {@code System.nanoTime} keeps counting through such a pause, so the pass's
 * elapsed time includes it; the result says so instead of passing it off as Redis's or
 * the client's time. A stall of Redis itself is not a pause of this process and is not
 * counted: it is part of what a run measures.
 */
final class PauseWatch implements AutoCloseable {

	static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	/**
	 * Lateness that counts as a pause: well above the scheduling jitter of a loaded
	 * machine, well below what changes a pass's figures unnoticed.
	 */
	static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final AtomicLong pausedNanos = new AtomicLong();

	private final Thread ticker;

	private volatile boolean stopped;

	private PauseWatch() {
		this.ticker = new Thread(this::tick, "pause-watch");
		this.ticker.setDaemon(true);
	}

	static PauseWatch start() {
		PauseWatch watch = new PauseWatch();
		watch.ticker.start();
		return watch;
	}

	private void tick() {
		long last = System.nanoTime();
		while (!this.stopped) {
			LockSupport.parkNanos(TICK_NANOS);
			long now = System.nanoTime();
			long late = now - last - TICK_NANOS;
			if (late >= PAUSE_NANOS) {
				this.pausedNanos.addAndGet(late);
			}
			last = now;
		}
	}

	/**
	 * Stops watching; a pause still under way when the pass ended is seen first.
	 * @return nanoseconds the process was seen paused since {@link #start()}
	 */
	long stop() {
		this.stopped = true;
		LockSupport.unpark(this.ticker);
		try {
			this.ticker.join(TimeUnit.NANOSECONDS.toMillis(PAUSE_NANOS));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return this.pausedNanos.get();
	}

	@Override
	public void close() {
		stop();
	}

}
