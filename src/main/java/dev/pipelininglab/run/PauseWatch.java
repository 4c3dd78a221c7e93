package dev.pipelininglab.run;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Notices that the whole process was not running during a timed pass (a stop-the-world
 * GC, a SIGSTOP, a suspended VM, a machine too busy to schedule it): a ticker that wakes
 * far later than it asked. {@code nanoTime} counts through such a pause, so the result
 * says so (docs/reliability.md); a stall of Redis is not counted: it is measured.
 */
final class PauseWatch {

	static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	/** Above a loaded machine's jitter, below what changes a pass's figures. */
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

	/** Answers the nanoseconds seen paused, one still under way included. */
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

}
