package dev.pipelininglab.job;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.pipelininglab.run.RunSlots;
import org.jspecify.annotations.Nullable;

/**
 * Jobs and GET runs under the one limit, {@code lab.admission.max-concurrent}
 * ({@link RunSlots}): a job may take every slot, and waits for none unless
 * {@code lab.jobs.queue-capacity} lets it queue (a queue, not a second limit); a GET run
 * waits its turn up to {@code lab.admission.max-wait}. Either then gets 429 with
 * Retry-After.
 */
final class JobAdmission {

	static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(5);

	private static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(5);

	/** A queued job waits until it gets a slot, is cancelled or the app closes. */
	private static final Duration NO_LIMIT = Duration.ofDays(365);

	/** Jobs admitted to wait for a slot: the bound is on this count. */
	private final AtomicInteger waiting = new AtomicInteger();

	private final Set<ActiveRun> queued = ConcurrentHashMap.newKeySet();

	/** Runs holding one of the slots, each given back once. */
	private final Set<ActiveRun> holding = ConcurrentHashMap.newKeySet();

	private final int queueCapacity;

	private final RunSlots slots;

	/** The jobs whose pace says when to come back. */
	private final Supplier<Collection<ActiveRun>> jobs;

	JobAdmission(int queueCapacity, RunSlots slots, Supplier<Collection<ActiveRun>> jobs) {
		this.queueCapacity = queueCapacity;
		this.slots = slots;
		this.jobs = jobs;
	}

	/** A job, with a run slot at once or a place in the queue. */
	ActiveRun admit(Supplier<ActiveRun> job) {
		if (this.slots.closed()) {
			throw shuttingDown();
		}
		boolean slot = this.slots.takeFree();
		if (!slot && this.waiting.incrementAndGet() > this.queueCapacity) {
			this.waiting.decrementAndGet();
			throw new JobsFullException(JobsFullException.slotsTaken(this.slots.max(), this.queueCapacity),
					retryAfter());
		}
		try {
			ActiveRun run = job.get();
			(slot ? this.holding : this.queued).add(run);
			return run;
		}
		catch (RuntimeException ex) {
			if (slot) {
				this.slots.release();
			}
			else {
				this.waiting.decrementAndGet();
			}
			throw ex;
		}
	}

	/**
	 * For a GET run, or with none {@code DELETE /keys}: first come first served within
	 * {@code lab.admission.max-wait}.
	 */
	void awaitSlot(@Nullable ActiveRun run) {
		try {
			if (this.slots.take()) {
				if (run != null) {
					this.holding.add(run);
				}
				return;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (this.slots.closed()) {
			throw shuttingDown();
		}
		throw new JobsFullException(
				"This app runs at most " + this.slots.max()
						+ " runs on Redis at once, GET runs and jobs together (lab.admission.max-concurrent), and this"
						+ " one waited " + this.slots.maxWait().toMillis()
						+ " ms for its turn (lab.admission.max-wait);" + " retry in a moment.",
				// GET runs are short as a rule: a second, unless jobs say better.
				this.jobs.get().isEmpty() ? Duration.ofSeconds(1) : retryAfter());
	}

	<T> T withSlot(Supplier<T> work) {
		awaitSlot(null);
		try {
			return work.get();
		}
		finally {
			this.slots.release();
		}
	}

	/** A queued job, on its worker: in turn, behind the runs before it. */
	void awaitRunSlot(ActiveRun run) {
		if (this.holding.contains(run)) {
			return;
		}
		try {
			if (this.slots.take(NO_LIMIT, run::cancelled)) {
				this.holding.add(run);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			run.shutDown();
		}
		finally {
			leaveQueue(run);
		}
	}

	/** Gives back the run's place in the queue and its run slot, once each. */
	void free(ActiveRun run) {
		leaveQueue(run);
		if (this.holding.remove(run)) {
			this.slots.release();
		}
	}

	private void leaveQueue(ActiveRun run) {
		if (this.queued.remove(run)) {
			this.waiting.decrementAndGet();
		}
	}

	static JobsFullException shuttingDown() {
		return new JobsFullException("This instance is shutting down and accepts no new runs", DEFAULT_RETRY_AFTER);
	}

	/** From the pace of the jobs, never past their max-run-time. */
	private Duration retryAfter() {
		return this.jobs.get()
			.stream()
			.map(ActiveRun::remaining)
			.filter(Objects::nonNull)
			.min(Duration::compareTo)
			.map((remaining) -> remaining.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : remaining)
			.orElse(DEFAULT_RETRY_AFTER);
	}

}
