package dev.pipelininglab.job;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
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
import dev.pipelininglab.run.ComparisonPlan;
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
 * Executes every run: a job ({@code POST /runs}), a GET run and a fleet member's share
 * run in one pool under the one limit of run slots ({@link JobAdmission}) and stop one
 * way ({@link ActiveRun#cancelled()}). A run's record is in Redis before its first key,
 * then written only by its heartbeat ({@link AbandonedRuns}) and at its end, never
 * between the batches being timed.
 */
@Service
public class RunExecutor implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(RunExecutor.class);

	private final Map<String, ActiveRun> active = new ConcurrentHashMap<>();

	/** Made on start, null once stopped: test contexts are paused and started again. */
	private volatile @Nullable ThreadPoolTaskExecutor workers;

	private final RunService runs;

	private final RunStore store;

	private final RunMetrics metrics;

	private final RunProblems problems;

	private final JobProperties settings;

	private final int warmUpRoundTrips;

	private final Duration maxRunTime;

	private final RunSlots slots;

	private final JobAdmission admission;

	private final FleetRuns fleet;

	private final RunEnvironment environment;

	private final OverlappingRuns overlaps;

	private final CancelFlags cancels;

	RunExecutor(RunService runs, RunStore store, RunMetrics metrics, RunProblems problems, JobProperties settings,
			WarmUpProperties warmUp, LimitProperties limits, RunSlots slots, FleetRuns fleet,
			RunEnvironment environment, OverlappingRuns overlaps, CancelFlags cancels) {
		this.runs = runs;
		this.store = store;
		this.metrics = metrics;
		this.problems = problems;
		this.settings = settings;
		this.warmUpRoundTrips = warmUp.roundTrips();
		this.maxRunTime = limits.maxRunTime();
		this.slots = slots;
		this.admission = new JobAdmission(settings.queueCapacity(), slots, this::jobs);
		this.fleet = fleet;
		this.environment = environment;
		this.overlaps = overlaps;
		this.cancels = cancels;
	}

	/** Throws {@link JobsFullException} when every run slot and queue place is taken. */
	public RunRecord submit(RunPlan plan) {
		if (this.workers == null) {
			throw JobAdmission.shuttingDown();
		}
		ActiveRun job = this.admission.admit(() -> activeRun(plan, null));
		RunRecord record = job.record();
		launch(job);
		return record;
	}

	/**
	 * A GET run, first come first served within {@code lab.admission.max-wait}; its
	 * answer and the id of its record, as {@code GET /runs/{id}} finds it.
	 */
	public Answer run(RunPlan plan, BooleanSupplier callerGone) {
		ActiveRun run = activeRun(plan, callerGone);
		this.admission.awaitSlot(run);
		launch(run);
		return new Answer(run.id, run.awaitAnswer());
	}

	public record Answer(String id, Object result) {
	}

	/** {@code DELETE /keys} waits for a run slot as a GET run. */
	public <T> T withSlot(Supplier<T> work) {
		return this.admission.withSlot(work);
	}

	private ActiveRun activeRun(RunPlan plan, @Nullable BooleanSupplier callerGone) {
		Instant now = Instant.now();
		ComparisonPlan compared = plan.compared(this.runs);
		List<KeySpace.Range> reach = plan.reach(this.runs, compared);
		RunRecord record = new RunRecord(UUID.randomUUID().toString(), plan.kind(), RunStatus.QUEUED, plan.describe(),
				RunRecord.Progress.NONE, false, this.fleet.instance(), now, null, null, now, null, null, null, null,
				this.environment.of(callerGone == null), null, null, reach.isEmpty() ? null : reach);
		return new ActiveRun(plan, compared, record,
				PhasePlan.of(plan, this.warmUpRoundTrips, (compared != null) ? compared.all() : List.of()),
				this.maxRunTime, callerGone);
	}

	private void launch(ActiveRun run) {
		ThreadPoolTaskExecutor pool = this.workers;
		try {
			// Failing, it does not run.
			run.record(() -> {
				this.store.create(run.record());
				if (run.waited()) {
					this.overlaps.watch(run);
				}
			});
			this.active.put(run.id, run);
			if (pool == null) {
				throw new RejectedExecutionException("not started");
			}
			pool.execute(() -> execute(run));
		}
		catch (RejectedExecutionException ex) {
			// The record says so rather than waiting to be found abandoned.
			this.active.remove(run.id);
			run.shutDown();
			finish(run, RunStatus.CANCELLED, null, stopProblem(RunStoppedException.Reason.SHUTDOWN), null);
			throw JobAdmission.shuttingDown();
		}
		catch (RuntimeException ex) {
			this.admission.free(run);
			throw ex;
		}
	}

	/** As this instance knows it when it runs or ran it, else as Redis says. */
	public Optional<RunRecord> find(String id) {
		return Optional.ofNullable(local(id)).or(() -> this.store.find(id));
	}

	private @Nullable RunRecord local(String id) {
		ActiveRun run = this.active.get(id);
		return (run != null) ? run.record() : this.store.ended(id);
	}

	public RunRecord get(String id) {
		return find(id).orElseThrow(() -> RunRecord.notFound(id));
	}

	/** Newest first, this instance's own records in place of Redis'. */
	public History recent(int limit) {
		try {
			return new History(this.store.recent(limit)
				.stream()
				.map((record) -> Objects.requireNonNullElse(local(record.id()), record))
				.toList(), null);
		}
		catch (RuntimeException ex) {
			return new History(this.store.local(this.active.values(), limit), this.problems.describe(ex).detail());
		}
	}

	/** {@code unavailable}: why Redis could not be read; {@code runs} then local only. */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record History(List<RunRecord> runs, @Nullable String unavailable) {
	}

	/** Through Redis, so it reaches the run on whichever instance runs it. */
	public RunRecord cancel(String id) {
		return this.cancels.cancel(get(id), this.active.get(id));
	}

	/** Jobs running or waiting on this instance, GET runs aside. */
	public int active() {
		return jobs().size();
	}

	private Collection<ActiveRun> jobs() {
		return this.active.values().stream().filter((run) -> !run.waited()).toList();
	}

	/** Every run here, GET runs too. */
	void heartbeat() {
		this.store.writeProgress(this.active.values());
	}

	private void execute(ActiveRun run) {
		try {
			this.admission.awaitRunSlot(run);
			if (run.cancelled()) {
				// Cancelled while waiting for a slot: it never starts.
				throw new RunCancelledException();
			}
			synchronized (run) {
				RunRecord running = run.update(RunStatus.RUNNING, Instant.now());
				this.store.save(run.waited() ? null : running);
			}
			this.overlaps.started(run, this.active.values());
			RunPlan.Outcome outcome = (run.plan.instances() > 1) ? this.fleet.lead(run)
					: run.plan.measure(this.runs, run, run.compared);
			this.overlaps.check(run);
			outcome.results().forEach(this.metrics::record);
			finish(run, RunStatus.DONE, outcome, null, null);
		}
		catch (RunCancelledException ex) {
			boolean timedOut = run.stopReason() == RunStoppedException.Reason.MAX_RUN_TIME;
			if (timedOut && !run.waited()) {
				log.info("Stopped run {} after lab.limits.max-run-time ({})", run.id, this.maxRunTime);
			}
			finish(run, timedOut ? RunStatus.FAILED : RunStatus.CANCELLED, null, stopProblem(run.stopReason()), null);
		}
		catch (RuntimeException ex) {
			RunRecord.Problem problem = this.problems.describe(ex);
			if (!run.waited()) {
				// A GET run's failure is logged with its answer.
				log.warn("Run {} failed: {}", run.id, problem.detail());
			}
			finish(run, RunStatus.FAILED, null, problem, ex);
		}
		finally {
			this.overlaps.forget(run);
			this.active.remove(run.id);
			this.admission.free(run);
			run.noAnswer();
		}
	}

	/**
	 * The final record goes to Redis after the answer, so a stuck Redis never delays it.
	 */
	private void finish(ActiveRun run, RunStatus status, RunPlan.@Nullable Outcome outcome,
			RunRecord.@Nullable Problem problem, @Nullable RuntimeException failure) {
		RunRecord record;
		synchronized (run) {
			// The slot is free before the final record can be read: the next run may
			// follow.
			this.admission.free(run);
			record = this.store.ended(run.finish(status, Instant.now(), outcome, problem, failure));
		}
		if (run.recorded()) {
			// No heartbeat writes a run after its final status: this write is the last.
			this.store.save(record);
		}
	}

	private RunRecord.@Nullable Problem stopProblem(RunStoppedException.Reason reason) {
		return switch (reason) {
			case MAX_RUN_TIME -> RunRecord.Problem.of(ProblemType.RUN_TIME_EXCEEDED, ProblemType.RUN_TIME_EXCEEDED
				.detail(this.maxRunTime.toString(), "what it wrote keeps its expiry."));
			case SHUTDOWN -> RunRecord.Problem.of(ProblemType.INSTANCE_SHUTDOWN,
					ProblemType.INSTANCE_SHUTDOWN.detail(this.fleet.instance()));
			default -> null;
		};
	}

	@Override
	public void start() {
		// A thread per admitted run, so none queues behind another; not Boot's shared
		// applicationTaskExecutor, whose shutdown tells no run to stop: stop() does.
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
	}

	/**
	 * Within {@code lab.jobs.shutdown-wait}, whose deadline the keys' expiry then shares;
	 * in the default phase, before the web server's graceful shutdown and Redis closing.
	 */
	@Override
	public void stop() {
		ThreadPoolTaskExecutor workers = this.workers;
		this.workers = null;
		this.slots.close(Instant.now().plus(this.settings.shutdownWait()));
		Collection<ActiveRun> runs = List.copyOf(this.active.values());
		runs.forEach(ActiveRun::shutDown);
		this.fleet.stop();
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
		runs.forEach((run) -> finish(run, RunStatus.CANCELLED, null, stopProblem(RunStoppedException.Reason.SHUTDOWN),
				null));
	}

	@Override
	public boolean isRunning() {
		return this.workers != null;
	}

}
