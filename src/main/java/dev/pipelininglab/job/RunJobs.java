package dev.pipelininglab.job;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.metrics.RunMetrics;
import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.Topology;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.RunCancelledException;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.RunSlots;
import dev.pipelininglab.run.WarmUpProperties;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Service;

/**
 * Runs measurements as jobs: accepted at once, measured on a bounded pool, their progress
 * and results kept in Redis where any instance can read them. A job's Redis traffic
 * (progress, cancel checks) happens on a ticker thread, never between the batches being
 * timed.
 * <p>
 * Stopping the app cancels running jobs between batches and records them as CANCELLED,
 * before the web server stops serving and before the Redis connections close.
 */
@Service
public class RunJobs implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(RunJobs.class);

	private final RunStore store;

	private final RunMetrics metrics;

	private final RunProblems problems;

	private final JobProperties settings;

	private final Clock clock;

	/** This instance's name in run records and problems: host, pid and a suffix. */
	public String instance() {
		return this.instance;
	}

	private final String instance;

	private final Map<String, Job> active = new ConcurrentHashMap<>();

	/**
	 * Made on start and shut down on stop: a stopped context can be started again (test
	 * contexts are paused).
	 */
	private volatile @Nullable ThreadPoolExecutor workers;

	private volatile @Nullable ScheduledExecutorService ticker;

	private volatile boolean running;

	private final JobRecords records;

	private final PlanMeasurement measurement;

	private final InstanceEnvironment environment;

	private final LimitProperties limits;

	private final JobAdmission admission;

	private final FleetRuns fleet;

	RunJobs(RunService runs, RunStore store, RunMetrics metrics, RunProblems problems, JobProperties settings,
			PipelineProperties pipeline, Topology topology, WarmUpProperties warmUp, LimitProperties limits,
			RunSlots slots, FleetRuns fleet) {
		this.fleet = fleet;
		this.limits = limits;
		this.admission = new JobAdmission(settings, slots);
		this.records = new JobRecords(store, settings);
		this.measurement = new PlanMeasurement(runs, warmUp);
		this.environment = new InstanceEnvironment(store, topology, pipeline, settings.maxConcurrent());
		this.store = store;
		this.metrics = metrics;
		this.problems = problems;
		this.settings = settings;
		this.clock = Clock.systemUTC();
		this.instance = fleet.instance();
	}

	/**
	 * Accepts a job and starts it as soon as a slot is free.
	 * @return its first record, QUEUED
	 * @throws JobsFullException when every slot and queue place of this instance is taken
	 */
	public RunRecord submit(RunPlan plan) {
		if (!this.running) {
			throw new JobsFullException("This instance is shutting down and accepts no new runs",
					JobAdmission.DEFAULT_RETRY_AFTER);
		}
		boolean slot = this.admission.admit(this::retryAfter);
		Job job;
		try {
			Instant now = this.clock.instant();
			RunRecord record = new RunRecord(UUID.randomUUID().toString(), plan.kind(), RunStatus.QUEUED,
					plan.describe(), RunRecord.Progress.NONE, false, this.instance, now, null, null, now, null, null,
					null, null, this.environment.describe(), null, null);
			job = new Job(plan, record, this.measurement.phases(plan), this.limits.maxRunTime());
			if (slot) {
				job.holdRunSlot();
			}
		}
		catch (RuntimeException ex) {
			this.admission.undo(slot);
			throw ex;
		}
		try {
			RunRecord record = job.record();
			this.store.create(record);
			this.active.put(job.id, job);
			try {
				ThreadPoolExecutor pool = this.workers;
				if (pool == null) {
					throw new RejectedExecutionException("not started");
				}
				pool.execute(() -> execute(job));
			}
			catch (RejectedExecutionException ex) {
				// Stopping right now: the record says so rather than waiting to be found
				// abandoned.
				this.active.remove(job.id);
				finish(job, RunStatus.CANCELLED, null, null, null, shutdownProblem());
				throw new JobsFullException("This instance is shutting down and accepts no new runs",
						JobAdmission.DEFAULT_RETRY_AFTER);
			}
			return record;
		}
		catch (RuntimeException ex) {
			freeSlot(job);
			throw ex;
		}
	}

	/**
	 * The job as this instance knows it when it runs or ran it, else as its record in
	 * Redis says.
	 */
	public Optional<RunRecord> find(String id) {
		RunRecord local = local(id);
		if (local != null) {
			return Optional.of(local);
		}
		Instant now = this.clock.instant();
		return this.store.find(id).map((record) -> record.seenAt(now, this.settings.staleAfter()));
	}

	private @Nullable RunRecord local(String id) {
		Job job = this.active.get(id);
		return (job != null) ? job.record() : this.records.ended(id);
	}

	/**
	 * @throws RunNotFoundException when no record has this id
	 */
	public RunRecord get(String id) {
		return find(id).orElseThrow(() -> new RunNotFoundException(id));
	}

	/**
	 * The most recent jobs in Redis, newest first, this instance's own records in place
	 * of theirs. When Redis cannot be read, this instance's records alone, and why.
	 */
	public History recent(int limit) {
		Instant now = this.clock.instant();
		try {
			List<RunRecord> runs = this.store.recent(limit)
				.stream()
				.map((record) -> Objects.requireNonNullElse(local(record.id()),
						record.seenAt(now, this.settings.staleAfter())))
				.toList();
			return new History(runs, null);
		}
		catch (RuntimeException ex) {
			return new History(this.records.local(this.active.values(), limit), this.problems.describe(ex).detail());
		}
	}

	/**
	 * @param runs newest first
	 * @param unavailable why Redis could not be read, when it could not: {@code runs}
	 * then holds this instance's runs only
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record History(List<RunRecord> runs, @Nullable String unavailable) {
	}

	/**
	 * Asks the job to stop before its next batch. The request goes through Redis, so it
	 * reaches the job on whichever instance runs it within a progress interval.
	 * @return the record, with {@code cancelRequested} set
	 */
	public RunRecord cancel(String id) {
		RunRecord record = get(id);
		if (record.status().terminal()) {
			throw new RunFinishedException(record);
		}
		Job local = this.active.get(id);
		if (local != null) {
			// Runs here: the flag in memory is enough, even while Redis cannot be
			// written.
			local.requestCancel();
			try {
				this.store.requestCancel(id);
			}
			catch (RuntimeException ex) {
				log.debug("Cannot record the cancel of run {} in Redis: {}", id, ex.getMessage());
			}
			return record.withCancelRequested();
		}
		this.store.requestCancel(id);
		return record.withCancelRequested();
	}

	/** Jobs running or waiting on this instance. */
	public int active() {
		return this.admission.active();
	}

	private void execute(Job job) {
		try {
			if (!job.cancelRequested() && this.store.cancelRequested(job.id)) {
				job.requestCancel();
			}
			this.admission.awaitRunSlot(job);
			if (job.cancelled()) {
				// Cancelled while waiting for a slot: it never starts.
				finish(job, RunStatus.CANCELLED, null, null, null, job.shuttingDown() ? shutdownProblem() : null);
				return;
			}
			synchronized (job) {
				save(job.update(RunStatus.RUNNING, this.clock.instant()));
			}
			markOverlaps(job);
			PlanMeasurement.Outcome outcome = (job.plan.instances() > 1) ? this.fleet.lead(job)
					: this.measurement.measure(job);
			this.metrics.record(outcome.results());
			finish(job, RunStatus.DONE, outcome.results(), outcome.skipped(), outcome.summary(), null);
		}
		catch (RunCancelledException ex) {
			if (job.timedOut() && !job.cancelRequested() && !job.shuttingDown()) {
				log.info("Stopped run {} after lab.limits.max-run-time ({})", job.id, job.maxRunTime());
				finish(job, RunStatus.FAILED, null, null, null,
						RunRecord.Problem.of(ProblemType.RUN_TIME_EXCEEDED, ProblemType.RUN_TIME_EXCEEDED
							.detail(job.maxRunTime().toString(), "what it wrote keeps its expiry.")));
			}
			else {
				finish(job, RunStatus.CANCELLED, null, null, null,
						(job.shuttingDown() && !job.cancelRequested()) ? shutdownProblem() : null);
			}
		}
		catch (RuntimeException ex) {
			RunRecord.Problem problem = this.problems.describe(ex);
			log.warn("Run {} failed: {}", job.id, problem.detail());
			finish(job, RunStatus.FAILED, null, null, null, problem);
		}
		finally {
			this.active.remove(job.id);
			freeSlot(job);
		}
	}

	/** Every progress interval: see {@link JobRecords#writeProgress}. */
	private void tick() {
		this.records.writeProgress(this.active.values(), this.clock);
	}

	private void finish(Job job, RunStatus status, @Nullable List<RunResult> results,
			@Nullable List<Comparison.Skipped> skipped, @Nullable String summary, RunRecord.@Nullable Problem problem) {
		synchronized (job) {
			// A client that sees its run end may send the next one at once: the slot is
			// free before the final record can be read, here or from Redis.
			freeSlot(job);
			RunRecord record = job.finish(status, this.clock.instant(), results, skipped, summary, problem);
			if (record != null) {
				this.records.ended(record);
			}
			save(record);
		}
	}

	private void freeSlot(Job job) {
		this.admission.free(job);
	}

	/** Callers hold the job's lock: see {@link JobRecords#save}. */
	private void save(@Nullable RunRecord record) {
		this.records.save(record);
	}

	/**
	 * Two runs measuring at once on one instance share its CPU and often its Redis: both
	 * are flagged.
	 */
	private void markOverlaps(Job started) {
		for (Job other : this.active.values()) {
			if (other != started && other.record().status() == RunStatus.RUNNING) {
				other.overlapped();
				started.overlapped();
			}
		}
	}

	/**
	 * When a slot is likely free again, from the pace of the jobs running here and never
	 * past their max-run-time; a few seconds when none can tell.
	 */
	public Duration retryAfter() {
		return JobAdmission.retryAfter(this.active.values());
	}

	private RunRecord.Problem shutdownProblem() {
		return RunRecord.Problem.of(ProblemType.INSTANCE_SHUTDOWN, ProblemType.INSTANCE_SHUTDOWN.detail(this.instance));
	}

	public static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	@Override
	public void start() {
		int threads = this.settings.maxConcurrent();
		this.workers = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				daemonThreads("run-job-"));
		ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(daemonThreads("run-progress-"));
		this.ticker = progress;
		long interval = this.settings.progressInterval().toMillis();
		progress.scheduleWithFixedDelay(this::tick, interval, interval, TimeUnit.MILLISECONDS);
		this.running = true;
	}

	/**
	 * Cancels every job between batches and waits for them to record it, within
	 * {@code lab.jobs.shutdown-wait}.
	 */
	@Override
	public void stop() {
		this.running = false;
		Collection<Job> jobs = List.copyOf(this.active.values());
		jobs.forEach(Job::shutDown);
		ThreadPoolExecutor pool = this.workers;
		if (pool != null) {
			pool.shutdown();
			try {
				if (!pool.awaitTermination(this.settings.shutdownWait().toMillis(), TimeUnit.MILLISECONDS)) {
					log.warn("Runs still going after {}; recording them as cancelled", this.settings.shutdownWait());
					pool.shutdownNow();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		for (Job job : jobs) {
			finish(job, RunStatus.CANCELLED, null, null, null, shutdownProblem());
		}
		ScheduledExecutorService progress = this.ticker;
		if (progress != null) {
			progress.shutdownNow();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Stops before the web server's graceful shutdown (and long before Redis connections
	 * close).
	 */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE;
	}

}
