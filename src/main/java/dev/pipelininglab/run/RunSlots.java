package dev.pipelininglab.run;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The one limit on runs: {@code lab.admission.max-concurrent} slots that GET runs, jobs
 * and fleet shares take alike, so a Redis never has more of this instance's measurements
 * on it than that, however they arrived. First come, first served: a run that asks while
 * others wait queues behind them, even when a slot is free at that instant. Once the app
 * closes ({@link #close}), no run takes a slot and the shutdown's deadline is here for
 * what still waits on stopped runs.
 */
@Component
public class RunSlots {

	/** How often a waiting run looks whether it gave up (a cancelled job). */
	private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final AdmissionProperties admission;

	/** Guarded by this: the waiting runs, in the order they asked. */
	private final Deque<Object> queue = new ArrayDeque<>();

	/** Guarded by this. */
	private int inUse;

	private volatile @Nullable Instant closedUntil;

	public RunSlots(AdmissionProperties admission) {
		this.admission = admission;
	}

	/** Waits at most {@code lab.admission.max-wait}. */
	public boolean take() throws InterruptedException {
		return take(maxWait(), () -> false);
	}

	/** A free slot, unless another run waits for one: it came first. */
	public synchronized boolean takeFree() {
		return this.closedUntil == null && this.queue.isEmpty() && takeIfFree();
	}

	/**
	 * In turn, behind the runs that asked before; false past {@code wait}, once
	 * {@code giveUp} says so, or when the app closes.
	 */
	public synchronized boolean take(Duration wait, BooleanSupplier giveUp) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("interrupted before asking for a run slot");
		}
		long deadline = System.nanoTime() + wait.toNanos();
		Object ticket = new Object();
		this.queue.addLast(ticket);
		try {
			while (this.closedUntil != null || this.queue.peekFirst() != ticket || !takeIfFree()) {
				long left = deadline - System.nanoTime();
				if (left <= 0 || this.closedUntil != null || giveUp.getAsBoolean()) {
					return false;
				}
				TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, CHECK_NANOS));
			}
			return true;
		}
		finally {
			// The next in line may take a slot now, or move up.
			this.queue.remove(ticket);
			notifyAll();
		}
	}

	private boolean takeIfFree() {
		if (this.inUse >= max()) {
			return false;
		}
		this.inUse++;
		return true;
	}

	public synchronized void release() {
		this.inUse--;
		notifyAll();
	}

	/**
	 * The app is shutting down: waiting runs are refused, and whatever waits on the
	 * stopped ones (their keys' expiry) has until {@code deadline}.
	 */
	public synchronized void close(Instant deadline) {
		this.closedUntil = deadline;
		notifyAll();
	}

	/** Test contexts are stopped and started again. */
	public void open() {
		this.closedUntil = null;
	}

	public boolean closed() {
		return this.closedUntil != null;
	}

	/** What is left of the shutdown's budget; zero while open. */
	public Duration shutdownLeft() {
		Instant until = this.closedUntil;
		if (until == null) {
			return Duration.ZERO;
		}
		Duration left = Duration.between(Instant.now(), until);
		return left.isNegative() ? Duration.ZERO : left;
	}

	/** Slots taken now, by GET runs, jobs and fleet shares together. */
	public synchronized int inUse() {
		return this.inUse;
	}

	public synchronized int queued() {
		return this.queue.size();
	}

	public int max() {
		return this.admission.maxConcurrent();
	}

	public Duration maxWait() {
		return this.admission.maxWait();
	}

}
