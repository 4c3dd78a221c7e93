package dev.pipelininglab.job;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.metrics.RunMetrics;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.RunCancelledException;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.RunSlots;
import dev.pipelininglab.run.WarmUpProperties;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.task.ThreadPoolTaskExecutorBuilder;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Service;

/**
 * The one run executor: a job ({@code POST /runs}), a GET run and a fleet member's share
 * run on one pool under the one limit of run slots and stop one way
 * ({@link Job#cancelled()}). A run's record is in Redis before its first key, with what
 * it may write, and is written again only by its heartbeat ({@link AbandonedRuns}) and at
 * its end, never on the measuring thread between the batches being timed.
 */
@Service
public class RunJobs implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(RunJobs.class);

	private final RunStore store;

	private final RunMetrics metrics;

	private final RunProblems problems;

	private final JobProperties settings;

	private final Map<String, Job> active = new ConcurrentHashMap<>();

	/** Made on start: test contexts are paused and started again. */
	private volatile @Nullable ThreadPoolTaskExecutor workers;

	private volatile boolean running;

	private final RunService runs;

	private final WarmUpProperties warmUp;

	private final LimitProperties limits;

	private final JobAdmission admission;

	private final RunSlots slots;

	private final FleetRuns fleet;

	RunJobs(RunService runs, RunStore store, RunMetrics metrics, RunProblems problems, JobProperties settings,
			WarmUpProperties warmUp, LimitProperties limits, RunSlots slots, FleetRuns fleet) {
		this.fleet = fleet;
		this.limits = limits;
		this.slots = slots;
		this.admission = new JobAdmission(settings.queueCapacity(), slots, this::jobs);
		this.runs = runs;
		this.warmUp = warmUp;
		this.store = store;
		this.metrics = metrics;
		this.problems = problems;
		this.settings = settings;
	}

	/**
	 * @throws JobsFullException when every run slot and queue place of this instance is
	 * taken
	 */
	public RunRecord submit(RunPlan plan) {
		if (!this.running) {
			throw JobAdmission.shuttingDown();
		}
		boolean slot = this.admission.admit();
		Job job;
		try {
			job = job(plan, null);
		}
		catch (RuntimeException ex) {
			this.admission.undo(slot);
			throw ex;
		}
		job.runSlot.set(slot);
		job.queued.set(!slot);
		RunRecord record = job.record();
		launch(job);
		return record;
	}

	/**
	 * A GET run, first come first served within {@code lab.admission.max-wait}; its
	 * answer and the id of its record, as {@code GET /runs/{id}} finds it.
	 */
	public Answer run(RunPlan plan, BooleanSupplier callerGone) {
		Job job = job(plan, callerGone);
		this.admission.awaitSlot();
		job.runSlot.set(true);
		launch(job);
		try {
			return new Answer(job.id, job.answer.join());
		}
		catch (CompletionException ex) {
			throw (ex.getCause() instanceof RuntimeException failure) ? failure : ex;
		}
	}

	public record Answer(String id, Object result) {
	}

	/** {@code DELETE /keys} waits for a run slot as a GET run. */
	public <T> T withSlot(Supplier<T> work) {
		this.admission.awaitSlot();
		try {
			return work.get();
		}
		finally {
			this.slots.release();
		}
	}

	private Job job(RunPlan plan, @Nullable BooleanSupplier callerGone) {
		Instant now = Instant.now();
		List<KeySpace.Range> reach = plan.reach(this.runs);
		RunRecord record = new RunRecord(UUID.randomUUID().toString(), plan.kind(), RunStatus.QUEUED, plan.describe(),
				RunRecord.Progress.NONE, false, this.fleet.instance(), now, null, null, now, null, null, null, null,
				this.store.environment(callerGone == null), null, null, reach.isEmpty() ? null : reach);
		return new Job(plan, record,
				PhasePlan.of(plan, (spec) -> this.runs.unsupported(spec) == null, this.warmUp.roundTrips(),
						(plan.kind() == RunKind.COMPARE)
								? this.runs.compared(plan.base(), plan.variants(), plan.steady()) : List.of()),
				this.limits.maxRunTime(), callerGone);
	}

	private void launch(Job job) {
		try {
			// Before the run's first key, with what it may write; failing, it does not
			// run.
			Runnable record = () -> {
				this.store.create(job.record());
				job.recorded = true;
				if (job.waited()) {
					// Written as it starts measuring.
					overlapsInRedis(job);
				}
			};
			if (job.waited()) {
				// A GET run refused before it wrote anything leaves no record either.
				job.onStart = record;
			}
			else {
				record.run();
			}
			this.active.put(job.id, job);
			try {
				ThreadPoolTaskExecutor pool = this.workers;
				if (pool == null) {
					throw new RejectedExecutionException("not started");
				}
				pool.execute(() -> execute(job));
			}
			catch (RejectedExecutionException ex) {
				// The record says so rather than waiting to be found abandoned.
				this.active.remove(job.id);
				job.shutdown = true;
				finish(job, RunStatus.CANCELLED, null, shutdownProblem(), null);
				throw JobAdmission.shuttingDown();
			}
		}
		catch (RuntimeException ex) {
			this.admission.free(job);
			throw ex;
		}
	}

	/** As this instance knows it when it runs or ran it, else as Redis says. */
	public Optional<RunRecord> find(String id) {
		return Optional.ofNullable(local(id)).or(() -> this.store.find(id));
	}

	private @Nullable RunRecord local(String id) {
		Job job = this.active.get(id);
		return (job != null) ? job.record() : this.store.ended(id);
	}

	public RunRecord get(String id) {
		return find(id).orElseThrow(() -> new RunNotFoundException(id));
	}

	/** Newest first, this instance's own records in place of Redis'. */
	public History recent(int limit) {
		try {
			List<RunRecord> recent = this.store.recent(limit)
				.stream()
				.map((record) -> Objects.requireNonNullElse(local(record.id()), record))
				.toList();
			return new History(recent, null);
		}
		catch (RuntimeException ex) {
			return new History(this.store.local(this.active.values(), limit), this.problems.describe(ex).detail());
		}
	}

	/** {@code unavailable}: why Redis could not be read; {@code runs} then local only. */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record History(List<RunRecord> runs, @Nullable String unavailable) {
	}

	/** Through Redis, so it reaches the job on whichever instance runs it. */
	public RunRecord cancel(String id) {
		RunRecord record = get(id);
		if (record.status().terminal()) {
			throw new RunFinishedException(record);
		}
		Job local = this.active.get(id);
		if (local != null) {
			local.cancelRequested = true;
		}
		try {
			this.store.requestCancel(id);
		}
		catch (RuntimeException ex) {
			if (local == null) {
				throw ex;
			}
			// Runs here: the flag in memory is enough.
			log.debug("Cannot record the cancel of run {} in Redis: {}", id, ex.getMessage());
		}
		return record.withCancelRequested();
	}

	/** Jobs running or waiting on this instance, GET runs aside. */
	public int active() {
		return jobs().size();
	}

	private void execute(Job job) {
		try {
			this.admission.awaitRunSlot(job);
			if (job.cancelled()) {
				// Cancelled while waiting for a slot: it never starts.
				throw new RunCancelledException();
			}
			synchronized (job) {
				RunRecord running = job.update(RunStatus.RUNNING, Instant.now());
				this.store.save(job.waited() ? null : running);
			}
			markOverlaps(job);
			RunPlan.Outcome outcome = (job.plan.instances() > 1) ? this.fleet.lead(job)
					: job.plan.measure(this.runs, job);
			job.checkOverlapSince();
			outcome.results().forEach(this.metrics::record);
			finish(job, RunStatus.DONE, outcome, null, null);
		}
		catch (RunCancelledException ex) {
			RunStoppedException.Reason reason = job.stopReason();
			if (reason == RunStoppedException.Reason.MAX_RUN_TIME) {
				if (!job.waited()) {
					log.info("Stopped run {} after lab.limits.max-run-time ({})", job.id, job.maxRunTime);
				}
				finish(job, RunStatus.FAILED, null,
						RunRecord.Problem.of(ProblemType.RUN_TIME_EXCEEDED, ProblemType.RUN_TIME_EXCEEDED
							.detail(job.maxRunTime.toString(), "what it wrote keeps its expiry.")),
						null);
			}
			else {
				finish(job, RunStatus.CANCELLED, null,
						(reason == RunStoppedException.Reason.SHUTDOWN) ? shutdownProblem() : null, null);
			}
		}
		catch (RuntimeException ex) {
			RunRecord.Problem problem = this.problems.describe(ex);
			if (!job.waited()) {
				// A GET run's failure is logged with its answer.
				log.warn("Run {} failed: {}", job.id, problem.detail());
			}
			finish(job, RunStatus.FAILED, null, problem, ex);
		}
		finally {
			this.active.remove(job.id);
			this.admission.free(job);
			job.answer.completeExceptionally(new IllegalStateException("Run " + job.id + " ended without an answer"));
		}
	}

	/** GET runs aside, for admission. */
	private Collection<Job> jobs() {
		return this.active.values().stream().filter((job) -> !job.waited()).toList();
	}

	/** Every run here, GET runs too: their records' heartbeat. */
	void heartbeat() {
		this.store.writeProgress(this.active.values());
	}

	/**
	 * The final record goes to Redis after the answer, so a stuck Redis never delays it.
	 */
	private void finish(Job job, RunStatus status, RunPlan.@Nullable Outcome outcome,
			RunRecord.@Nullable Problem problem, @Nullable RuntimeException failure) {
		RunRecord record;
		synchronized (job) {
			// The slot is free before the final record can be read: the next run may
			// follow.
			this.admission.free(job);
			record = this.store.ended(job.finish(status, Instant.now(), outcome, problem));
		}
		if (outcome != null) {
			job.answer.complete(outcome.answer());
		}
		job.answer.completeExceptionally(
				(failure != null) ? failure : new RunStoppedException(job.stopReason(), job.record(), job.elapsed()));
		if (job.recorded) {
			// No heartbeat writes a run after its final status: this write is the last.
			this.store.save(record);
		}
	}

	/**
	 * Two runs measuring at once share the Redis, and on one instance its CPU too. Other
	 * instances' runs are known from Redis: one live as this one starts, or one begun
	 * before it ends (each of the two then sees the other).
	 */
	private void markOverlaps(Job started) {
		for (Job other : this.active.values()) {
			if (other != started && other.record().status() == RunStatus.RUNNING) {
				other.overlapped = true;
				started.overlapped = true;
			}
		}
		if (started.recorded && !started.waited()) {
			overlapsInRedis(started);
		}
	}

	private void overlapsInRedis(Job job) {
		Instant since = Instant.now();
		job.overlapped |= this.store.othersLive(job.id);
		job.begunSince = () -> this.store.othersCreatedSince(job.id, since);
	}

	private RunRecord.Problem shutdownProblem() {
		return RunRecord.Problem.of(ProblemType.INSTANCE_SHUTDOWN,
				ProblemType.INSTANCE_SHUTDOWN.detail(this.fleet.instance()));
	}

	@Override
	public void start() {
		// Admission bounds the runs, so none queues behind another (a GET run that took
		// its slot behind a job waiting for one): a thread each, kept a minute once done.
		// Not Boot's shared applicationTaskExecutor, whose shutdown tells no run to stop:
		// stop() below does, then waits within the shutdown's one budget.
		ThreadPoolTaskExecutor pool = new ThreadPoolTaskExecutorBuilder().threadNamePrefix("run-")
			.corePoolSize(0)
			.maxPoolSize(Integer.MAX_VALUE)
			.queueCapacity(0)
			.build();
		pool.setDaemon(true);
		pool.initialize();
		this.workers = pool;
		this.slots.open();
		this.fleet.start(pool);
		this.running = true;
	}

	/**
	 * Within {@code lab.jobs.shutdown-wait}, whose deadline the keys' expiry then shares;
	 * in the default phase, before the web server's graceful shutdown and Redis closing.
	 */
	@Override
	public void stop() {
		this.running = false;
		this.slots.close(Instant.now().plus(this.settings.shutdownWait()));
		Collection<Job> jobs = List.copyOf(this.active.values());
		jobs.forEach((job) -> job.shutdown = true);
		this.fleet.stop();
		ThreadPoolTaskExecutor workers = this.workers;
		if (workers != null) {
			ExecutorService pool = workers.getThreadPoolExecutor();
			pool.shutdown();
			try {
				if (!pool.awaitTermination(this.slots.shutdownLeft().toMillis(), TimeUnit.MILLISECONDS)) {
					log.warn("Runs still going after {}; recording them as cancelled", this.settings.shutdownWait());
					pool.shutdownNow();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		for (Job job : jobs) {
			finish(job, RunStatus.CANCELLED, null, shutdownProblem(), null);
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
