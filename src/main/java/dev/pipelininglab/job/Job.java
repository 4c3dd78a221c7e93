package dev.pipelininglab.job;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.RunObserver;
import dev.pipelininglab.run.RunResult;
import org.jspecify.annotations.Nullable;

/**
 * A job on the instance running it. The measuring thread only bumps a counter and reads a
 * flag, both in memory: Redis is written and read by the progress ticker, so no extra
 * round trip ever lands inside a timed pass.
 */
final class Job implements RunObserver {

	final String id;

	final RunPlan plan;

	private final AtomicLong batchesDone = new AtomicLong();

	private volatile long batchesTotal;

	private volatile boolean cancelRequested;

	private volatile boolean shutdown;

	private volatile long startedNanos;

	/** Guarded by {@code this}; once final, only the final record may be written. */
	private RunRecord record;

	Job(RunPlan plan, RunRecord record) {
		this.id = record.id();
		this.plan = plan;
		this.record = record;
	}

	@Override
	public void started(long totalBatches) {
		this.batchesTotal = totalBatches;
	}

	@Override
	public void batchDone() {
		this.batchesDone.incrementAndGet();
	}

	@Override
	public boolean cancelled() {
		return this.cancelRequested || this.shutdown;
	}

	void requestCancel() {
		this.cancelRequested = true;
	}

	boolean cancelRequested() {
		return this.cancelRequested;
	}

	/**
	 * The instance is stopping: the run ends between batches like a cancel, recorded as
	 * caused by the shutdown.
	 */
	void shutDown() {
		this.shutdown = true;
	}

	boolean shuttingDown() {
		return this.shutdown;
	}

	RunRecord.Progress progress() {
		return RunRecord.Progress.of(this.batchesDone.get(), this.batchesTotal);
	}

	synchronized RunRecord record() {
		return this.record;
	}

	synchronized boolean isFinished() {
		return this.record.status().terminal();
	}

	/**
	 * @return the record to save, or null when the job already reached a final status
	 */
	synchronized @Nullable RunRecord update(@Nullable RunStatus status, Instant now) {
		if (isFinished()) {
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
	 * @return the final record to save, or null when the job already reached a final
	 * status
	 */
	synchronized @Nullable RunRecord finish(RunStatus status, Instant now, @Nullable List<RunResult> results,
			@Nullable List<Comparison.Skipped> skipped, @Nullable String summary, RunRecord.@Nullable Problem problem) {
		if (isFinished()) {
			return null;
		}
		this.record = this.record.finished(status, progress(), this.cancelRequested, now, results, skipped, summary,
				problem);
		return this.record;
	}

	/**
	 * How long until this job is likely done, from its pace so far; null while that
	 * cannot be told yet.
	 */
	@Nullable Duration remaining() {
		long total = this.batchesTotal;
		long done = this.batchesDone.get();
		long started = this.startedNanos;
		if (started == 0 || total == 0 || done * 100 < total) {
			return null;
		}
		long elapsed = System.nanoTime() - started;
		return Duration.ofNanos((long) (elapsed * ((double) (total - done) / done)));
	}

}
