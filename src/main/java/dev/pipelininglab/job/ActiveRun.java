package dev.pipelininglab.job;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import dev.pipelininglab.run.ComparisonPlan;
import dev.pipelininglab.run.RunObserver;
import org.jspecify.annotations.Nullable;

import static dev.pipelininglab.run.RunService.round;

/**
 * A run, a job or a GET run, while this instance runs it, and the one owner of its state:
 * the others ask it to change. The measuring thread only bumps a counter and reads flags,
 * all in memory: Redis is written before and after the run and by the heartbeat, so no
 * extra round trip ever lands between the batches being timed.
 */
final class ActiveRun implements RunObserver {

	final String id;

	final RunPlan plan;

	/** A comparison's plan, made once when it was accepted. */
	final @Nullable ComparisonPlan compared;

	private final PhasePlan phases;

	/** From when it starts running. */
	private final Duration maxRunTime;

	/** What a GET run's caller gets: its result, or why it has none. */
	private final CompletableFuture<Object> answer = new CompletableFuture<>();

	/** Null for a job. */
	private final @Nullable BooleanSupplier callerGone;

	/** Guarded by {@code this}; once final, only the final record may be written. */
	private RunRecord record;

	private final AtomicLong batchesDone = new AtomicLong();

	private volatile long batchesTotal;

	private volatile long startedNanos;

	/** -1 before the first phase. */
	private volatile int step = -1;

	private volatile String phase = "starting";

	private volatile long phaseCommands;

	private final AtomicLong phaseDone = new AtomicLong();

	private volatile long phaseStartedNanos;

	private volatile @Nullable Phase current;

	/** By {@code DELETE /runs/{id}}, here or (through Redis) on another instance. */
	private volatile boolean cancelRequested;

	private volatile boolean shutdown;

	/** Another run measured at the same time ({@link OverlappingRuns}). */
	private volatile boolean overlapped;

	/** A GET run's first record, written once the preflight let it start. */
	private volatile @Nullable Runnable onStart;

	/** Its record is in Redis: heartbeats and the final record may follow. */
	private volatile boolean recorded;

	/** A fleet's leader starts the fleet when its own timed pass is due. */
	private volatile @Nullable Runnable beforeTiming;

	ActiveRun(RunPlan plan, @Nullable ComparisonPlan compared, RunRecord record, PhasePlan phases, Duration maxRunTime,
			@Nullable BooleanSupplier callerGone) {
		this.id = record.id();
		this.plan = plan;
		this.compared = compared;
		this.record = record;
		this.phases = phases;
		this.maxRunTime = maxRunTime;
		this.callerGone = callerGone;
	}

	@Override
	public void phase(Phase next, String variant, int batchSize, long commands) {
		Runnable start = this.beforeTiming;
		if (next == Phase.TIMING && start != null) {
			start.run();
		}
		int index = this.phases.next(this.step, next, variant, batchSize);
		this.phaseDone.set(0);
		this.phaseCommands = commands;
		this.phaseStartedNanos = System.nanoTime();
		this.current = next;
		PhasePlan.Step step = (index != this.step) ? this.phases.steps.get(index)
				: new PhasePlan.Step(next, variant, batchSize, commands, 0);
		this.step = index;
		this.phase = step.describe(this.plan.kind() == RunKind.SWEEP);
	}

	@Override
	public void commandsDone(long commands) {
		this.phaseDone.addAndGet(commands);
	}

	@Override
	public void started(long totalBatches) {
		this.batchesTotal = totalBatches;
		Runnable create = this.onStart;
		this.onStart = null;
		if (create != null) {
			create.run();
			this.recorded = true;
		}
	}

	@Override
	public void batchDone() {
		this.batchesDone.incrementAndGet();
	}

	/** The one stop check of every run, between round trips. */
	@Override
	public boolean cancelled() {
		return this.cancelRequested || this.shutdown || timedOut()
				|| (this.callerGone != null && this.callerGone.getAsBoolean());
	}

	RunStoppedException.Reason stopReason() {
		return this.cancelRequested ? RunStoppedException.Reason.CANCELLED
				: this.shutdown ? RunStoppedException.Reason.SHUTDOWN
						: timedOut() ? RunStoppedException.Reason.MAX_RUN_TIME : RunStoppedException.Reason.CALLER_GONE;
	}

	/** A GET run: a caller waits for its answer. */
	boolean waited() {
		return this.callerGone != null;
	}

	void requestCancel() {
		this.cancelRequested = true;
	}

	boolean cancelRequested() {
		return this.cancelRequested;
	}

	void shutDown() {
		this.shutdown = true;
	}

	void markOverlapped() {
		this.overlapped = true;
	}

	boolean overlapped() {
		return this.overlapped;
	}

	void beforeTiming(Runnable start) {
		this.beforeTiming = start;
	}

	/**
	 * Its first record, before its first key: a job's at once; a GET run's as it starts
	 * measuring, so one refused before leaves no record either.
	 */
	void record(Runnable create) {
		if (waited()) {
			this.onStart = create;
		}
		else {
			create.run();
			this.recorded = true;
		}
	}

	boolean recorded() {
		return this.recorded;
	}

	Duration elapsed() {
		long started = this.startedNanos;
		return (started == 0) ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - started);
	}

	private boolean timedOut() {
		long started = this.startedNanos;
		return started != 0 && System.nanoTime() - started - this.maxRunTime.toNanos() >= 0;
	}

	RunRecord.Progress progress() {
		long started = this.startedNanos;
		if (started == 0) {
			return RunRecord.Progress.NONE;
		}
		long now = System.nanoTime();
		long commands = this.phaseCommands;
		long done = this.phaseDone.get();
		double phaseSeconds = (now - this.phaseStartedNanos) / 1e9;
		double fraction = (commands > 0) ? (double) done / commands : 0;
		// A steady comparison's passes by time have a limit its request did not set.
		Duration limit = (this.plan.base().workload().duration() != null) ? this.plan.base().workload().duration()
				: this.phases.passTime;
		if (limit != null && this.current == Phase.TIMING) {
			// A timed pass ends by its count or its time limit, whichever comes first.
			fraction = Math.max(fraction, phaseSeconds / (limit.toNanos() / 1e9));
		}
		double share = this.phases.done(this.step, fraction);
		double elapsed = (now - started) / 1e9;
		Double opsPerSecond = (done > 0 && phaseSeconds > 0) ? round(done / phaseSeconds, 1) : null;
		Double remaining = (share >= 0.02 && elapsed >= 0.5) ? round(elapsed * (1 - share) / share, 1) : null;
		return new RunRecord.Progress(this.batchesDone.get(), this.batchesTotal, Math.floor(share * 1000) / 10,
				this.phase, round(elapsed, 1), opsPerSecond, remaining);
	}

	/** A fleet's leader: what it waits for, and who took part so far. */
	synchronized void fleet(String waiting, Fleet fleet) {
		this.phase = waiting;
		this.record = this.record.withFleet(fleet);
	}

	/** With its progress as of now: this instance reads it from memory, not Redis. */
	synchronized RunRecord record() {
		return this.record.status().terminal() ? this.record
				: this.record.with(this.record.status(), progress(), this.cancelRequested, Instant.now());
	}

	synchronized boolean updatedBefore(Instant time) {
		return this.record.updatedAt().isBefore(time);
	}

	/** Null when it already reached a final status. */
	synchronized @Nullable RunRecord update(@Nullable RunStatus status, Instant now) {
		if (this.record.status().terminal()) {
			return null;
		}
		if (status == RunStatus.RUNNING) {
			this.startedNanos = System.nanoTime();
		}
		this.record = this.record.with((status != null) ? status : this.record.status(), progress(),
				this.cancelRequested, now);
		return this.record;
	}

	/**
	 * Its final record and answer; null when it already reached a final status.
	 * {@code failure}: why it failed, for a GET run's caller.
	 */
	synchronized @Nullable RunRecord finish(RunStatus status, Instant now, RunPlan.@Nullable Outcome outcome,
			RunRecord.@Nullable Problem problem, @Nullable RuntimeException failure) {
		if (this.record.status().terminal()) {
			return null;
		}
		RunRecord.Progress seen = progress();
		boolean done = status == RunStatus.DONE;
		RunRecord.Progress last = new RunRecord.Progress(seen.batchesDone(), seen.batchesTotal(),
				done ? 100 : seen.percent(), done ? "done" : seen.phase(), seen.elapsedSeconds(), null, null);
		this.record = this.record.finished(status, last, this.cancelRequested, now, outcome, problem,
				this.overlapped ? Boolean.TRUE : null);
		if (outcome != null) {
			this.answer.complete(outcome.answer());
		}
		this.answer.completeExceptionally(
				(failure != null) ? failure : new RunStoppedException(stopReason(), this.record, elapsed()));
		return this.record;
	}

	Object awaitAnswer() {
		try {
			return this.answer.join();
		}
		catch (CompletionException ex) {
			throw (ex.getCause() instanceof RuntimeException failure) ? failure : ex;
		}
	}

	/** A safety net: a caller never waits for a run that ended another way. */
	void noAnswer() {
		this.answer.completeExceptionally(new IllegalStateException("Run " + this.id + " ended without an answer"));
	}

	/** From its pace so far, never past max-run-time; null while it has not started. */
	@Nullable Duration remaining() {
		long total = this.batchesTotal;
		long done = this.batchesDone.get();
		if (this.startedNanos == 0) {
			return null;
		}
		Duration elapsed = elapsed();
		Duration limit = this.maxRunTime.minus(elapsed);
		if (total == 0 || done * 100 < total) {
			return limit;
		}
		Duration pace = Duration.ofNanos((long) (elapsed.toNanos() * ((double) (total - done) / done)));
		return (pace.compareTo(limit) < 0) ? pace : limit;
	}

}
