package dev.pipelininglab.job;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.pipelininglab.run.RunSlots;

/**
 * Which jobs may run on this instance: at most {@code lab.jobs.max-concurrent} at once
 * and {@code lab.jobs.queue-capacity} waiting, each running one holding one of the run
 * slots GET runs take too ({@link RunSlots}), so every measurement counts against one
 * limit.
 */
final class JobAdmission {

	static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(5);

	private static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(5);

	/** How often a queued job looks whether it was cancelled. */
	private static final Duration SLOT_CHECK = Duration.ofMillis(200);

	/** Jobs running or waiting: the bound is on this count, not on the pool's queue. */
	private final AtomicInteger admitted = new AtomicInteger();

	/** Jobs holding a run slot. */
	private final AtomicInteger holding = new AtomicInteger();

	private final JobProperties settings;

	private final RunSlots slots;

	/** The jobs whose pace says when to come back. */
	private final Supplier<Collection<Job>> jobs;

	JobAdmission(JobProperties settings, RunSlots slots, Supplier<Collection<Job>> jobs) {
		this.settings = settings;
		this.slots = slots;
		this.jobs = jobs;
	}

	/** Whether it took a run slot at once; else it waits for one in the queue. */
	boolean admit() {
		int limit = this.settings.maxConcurrent() + this.settings.queueCapacity();
		if (this.admitted.incrementAndGet() > limit) {
			this.admitted.decrementAndGet();
			throw new JobsFullException("This instance already runs " + this.settings.maxConcurrent() + " runs"
					+ ((this.settings.queueCapacity() > 0) ? " with " + this.settings.queueCapacity() + " waiting" : "")
					+ " (lab.jobs.max-concurrent, lab.jobs.queue-capacity); try again later", retryAfter());
		}
		boolean slot;
		// Counted here, as the pool runs GET runs too and its size bounds nothing.
		synchronized (this) {
			slot = this.holding.get() < this.settings.maxConcurrent() && this.slots.takeFree();
			if (slot) {
				this.holding.incrementAndGet();
			}
		}
		if (!slot && this.settings.queueCapacity() == 0) {
			this.admitted.decrementAndGet();
			throw new JobsFullException("Every run slot of this instance is taken (" + this.slots.max()
					+ " runs at once, GET runs and jobs together: lab.admission.max-concurrent); try again later",
					retryAfter());
		}
		return slot;
	}

	/**
	 * For a GET run or {@code DELETE /keys}: first come first served within
	 * {@code lab.admission.max-wait}.
	 */
	void awaitSlot() {
		try {
			if (this.slots.take()) {
				return;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		throw new JobsFullException(
				"This app runs at most " + this.slots.max()
						+ " runs on Redis at once, GET runs and jobs together (lab.admission.max-concurrent), and this"
						+ " one waited " + this.slots.maxWait().toSeconds()
						+ " s for its turn (lab.admission.max-wait); retry in a moment.",
				// GET runs are short as a rule: a second, unless jobs say better.
				(active() > 0) ? retryAfter() : Duration.ofSeconds(1));
	}

	/** For a job that could not be made. */
	void undo(boolean slot) {
		this.admitted.decrementAndGet();
		if (slot) {
			this.holding.decrementAndGet();
			this.slots.release();
		}
	}

	/** Gives back the job's place and run slot, once each. */
	void free(Job job) {
		if (!job.waited() && job.placeFreed.compareAndSet(false, true)) {
			this.admitted.decrementAndGet();
		}
		if (job.runSlot.compareAndSet(true, false)) {
			if (!job.waited()) {
				this.holding.decrementAndGet();
			}
			this.slots.release();
		}
	}

	void awaitRunSlot(Job job) {
		try {
			while (!job.runSlot.get() && !job.cancelled()) {
				synchronized (this) {
					if (this.holding.get() >= this.settings.maxConcurrent()) {
						wait(SLOT_CHECK.toMillis());
					}
					else if (this.slots.take(SLOT_CHECK)) {
						this.holding.incrementAndGet();
						job.runSlot.set(true);
					}
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			job.shutdown = true;
		}
	}

	int active() {
		return this.admitted.get();
	}

	/** From the pace of the jobs, never past their max-run-time. */
	private Duration retryAfter() {
		return this.jobs.get()
			.stream()
			.map(Job::remaining)
			.filter(Objects::nonNull)
			.min(Duration::compareTo)
			.map((remaining) -> remaining.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : remaining)
			.orElse(DEFAULT_RETRY_AFTER);
	}

}
