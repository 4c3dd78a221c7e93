package dev.pipelininglab.job;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.job.FleetChannel.Signal;
import dev.pipelininglab.job.FleetChannel.Type;
import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.run.FleetShares;
import dev.pipelininglab.run.RunCancelledException;
import dev.pipelininglab.run.RunObserver;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.RunSlots;
import dev.pipelininglab.run.RunSpec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * Fleet runs: one measurement from several instances sharing a Redis and key prefix
 * ({@code lab.fleet.join=true}, one {@code lab.fleet.secret}). The leader, which took the
 * request, preflights the whole run, calls members on the signed {@link FleetChannel},
 * gives the first to join each a contiguous share of the items, starts every timed pass
 * at one moment of Redis' clock and merges their reports ({@link FleetResult}). A member
 * runs its share in {@link RunExecutor}'s pool holding a run slot and reads nothing back:
 * after the last report the leader reads the servers' INFO, then every share, and expires
 * the whole run ({@link FleetShares}), so the figures are what Redis holds and the
 * server's account covers the timed passes alone. Coordination is pub/sub, outside the
 * timed passes; a lost message counts as a member that did not join or report.
 */
@Component
class FleetRuns {

	private static final Logger log = LoggerFactory.getLogger(FleetRuns.class);

	/** Enough for PUBLISH to reach every member. */
	private static final long START_MARGIN_MICROS = 200_000;

	private final FleetChannel channel;

	private final FleetProperties settings;

	private final RunService runs;

	private final FleetShares shares;

	private final RunSlots slots;

	private final ServerCounters counters;

	private final OverlappingRuns overlaps;

	private final Duration maxRunTime;

	private final String instance;

	/** The runs this instance leads or serves, by id. */
	private final Map<String, FleetInbox> inboxes = new ConcurrentHashMap<>();

	private volatile @Nullable Executor workers;

	private volatile boolean running;

	FleetRuns(FleetChannel channel, FleetProperties settings, RunService runs, FleetShares shares, RunSlots slots,
			ServerCounters counters, LimitProperties limits, OverlappingRuns overlaps) {
		this.channel = channel;
		this.settings = settings;
		this.runs = runs;
		this.shares = shares;
		this.slots = slots;
		this.counters = counters;
		this.overlaps = overlaps;
		this.maxRunTime = limits.maxRunTime();
		// Host and pid for people; the suffix tells apart two app contexts in one JVM.
		this.instance = Objects.requireNonNullElse(System.getenv("HOSTNAME"), "localhost") + ":"
				+ ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 4);
	}

	String instance() {
		return this.instance;
	}

	/** Leads the fleet run of {@code job}, its own share on the job's thread and slot. */
	RunPlan.Outcome lead(ActiveRun job) {
		RunSpec whole = job.plan.base();
		int asked = job.plan.instances();
		// Before any member is called: what the whole fleet stores must fit.
		this.runs.preflight(whole, job);
		FleetInbox inbox = new FleetInbox(null);
		FleetShares.Keys keys = this.shares.keysOf(whole);
		this.inboxes.put(job.id, inbox);
		try {
			this.channel.publish(new Signal(Type.CALL, job.id, this.instance, 0, whole, null, null, null, null, null));
			long joinBy = System.nanoTime() + this.settings.joinTimeout().toNanos();
			List<String> names = List.of(this.instance);
			while (names.size() < asked && System.nanoTime() - joinBy < 0) {
				int known = names.size() - 1;
				inbox.await(() -> inbox.all(Type.JOIN).size() > known, joinBy, job::cancelled);
				names = Stream.concat(Stream.of(this.instance), inbox.all(Type.JOIN).stream().map(Signal::instance))
					.limit(asked)
					.toList();
				job.fleet("joining: " + names.size() + " of " + asked, new Fleet(asked, names.size(), null, null,
						Fleet.COORDINATION, names.stream().map((name) -> Fleet.Member.of(name, null)).toList()));
			}
			List<String> joined = names;
			int size = names.size();
			List<Fleet.Member> planned = IntStream.range(0, size)
				.mapToObj((k) -> Fleet.Member.of(joined.get(k),
						new Fleet.Share(whole.count() * k / size, whole.count() * (k + 1) / size)))
				.toList();
			this.channel
				.publish(new Signal(Type.PLAN, job.id, this.instance, 0, null, planned, null, null, null, null));
			job.fleet("starting " + size + " of " + asked,
					new Fleet(asked, size, null, null, Fleet.COORDINATION, planned));
			job.beforeTiming(() -> startLeading(job, inbox, size));
			RunResult result = this.runs.runShare(FleetResult.share(whole, planned.get(0)), job);
			long ownEnd = System.nanoTime();
			// The others get as long again as this one took, and the join timeout.
			long resultsBy = Math.min(ownEnd + (ownEnd - inbox.signalled) + this.settings.joinTimeout().toNanos(),
					inbox.signalled + this.maxRunTime.toNanos());
			inbox.await(() -> inbox.all(Type.RESULT).size() >= size - 1, resultsBy, job::cancelled);
			// No member reads back: from the start to the last report, the servers
			// count the timed passes alone.
			ServerCounters.Snapshot before = Objects.requireNonNull(inbox.before);
			ServerCounters.Snapshot after = this.counters.snapshot();
			long windowNanos = System.nanoTime() - inbox.signalled;
			Map<String, Signal> results = new HashMap<>();
			inbox.all(Type.RESULT).forEach((report) -> results.put(report.instance(), report));
			results.put(this.instance,
					new Signal(Type.RESULT, job.id, this.instance, 0, null, null, inbox.at, result, null, null));
			boolean replicasServe = !whole.operation().writesKeys();
			this.overlaps.check(job);
			FleetResult merged = FleetResult.merge(job, this.shares, keys, planned, results,
					this.counters.between(before, after, replicasServe),
					this.counters.processed(before, after, replicasServe), windowNanos);
			job.fleet("done", merged.fleet());
			return new RunPlan.Outcome(List.of(merged.result()), null, merged.summary(), merged.result());
		}
		finally {
			this.inboxes.remove(job.id);
			// Members still running (slow, or never told to start) stop and expire what
			// they wrote themselves; once started, the whole run gets its expiry here.
			sayStop(job.id);
			if (inbox.before != null) {
				keys.expireRest();
			}
		}
	}

	/** Every member ready (within the join timeout), then all start at once. */
	private void startLeading(ActiveRun job, FleetInbox inbox, int members) {
		inbox.await(() -> inbox.all(Type.READY).size() >= members - 1,
				System.nanoTime() + this.settings.joinTimeout().toNanos(), job::cancelled);
		inbox.before = this.counters.snapshot();
		long at = this.channel.redisMicros() + START_MARGIN_MICROS;
		inbox.signalled = System.nanoTime();
		this.channel.publish(new Signal(Type.GO, job.id, this.instance, 0, null, null, at, null, null, null));
		inbox.at = this.channel.startAt(at, job::cancelled);
	}

	/** A member takes its run's messages only from its leader. */
	private void onMessage(Signal signal) {
		if (signal.instance().equals(this.instance)) {
			return;
		}
		if (signal.type() == Type.CALL) {
			join(signal);
			return;
		}
		FleetInbox inbox = this.inboxes.get(signal.run());
		if (inbox != null && (inbox.leader == null || inbox.leader.equals(signal.instance()))) {
			inbox.add(signal);
		}
	}

	/** Answers a call when a run slot is free here, then serves the share it is given. */
	private void join(Signal call) {
		Executor pool = this.workers;
		if (pool == null || !this.running || call.spec() == null || !this.slots.takeFree()) {
			return;
		}
		FleetInbox inbox = new FleetInbox(call.instance());
		this.inboxes.put(call.run(), inbox);
		try {
			pool.execute(() -> serve(call, inbox));
		}
		catch (RejectedExecutionException ex) {
			this.inboxes.remove(call.run());
			this.slots.release();
		}
	}

	private void serve(Signal call, FleetInbox inbox) {
		String run = call.run();
		BooleanSupplier stopped = () -> !this.running || inbox.over();
		try {
			this.channel.publish(Signal.of(Type.JOIN, run, this.instance));
			inbox.await(() -> inbox.first(Type.PLAN) != null,
					System.nanoTime() + this.settings.joinTimeout().toNanos() * 2, stopped);
			Fleet.Member mine = Stream.ofNullable(inbox.first(Type.PLAN))
				.flatMap((plan) -> Objects.requireNonNull(plan.members()).stream())
				.filter((member) -> member.instance().equals(this.instance) && member.share() != null)
				.findFirst()
				.orElse(null);
			if (mine == null) {
				return;
			}
			long deadline = System.nanoTime() + this.maxRunTime.toNanos();
			RunObserver observer = new RunObserver() {
				@Override
				public void phase(Phase phase, String variant, int batchSize, long commands) {
					if (phase == Phase.TIMING) {
						FleetRuns.this.channel.publish(Signal.of(Type.READY, run, FleetRuns.this.instance));
						inbox.await(() -> inbox.first(Type.GO) != null, Long.MAX_VALUE, this::cancelled);
						inbox.at = FleetRuns.this.channel.startAt(Objects.requireNonNull(inbox.first(Type.GO)).at(),
								this::cancelled);
					}
				}

				@Override
				public boolean cancelled() {
					return stopped.getAsBoolean() || System.nanoTime() - deadline > 0;
				}
			};
			Signal report;
			try {
				RunResult result = this.runs.runShare(FleetResult.share(Objects.requireNonNull(call.spec()), mine),
						observer);
				report = new Signal(Type.RESULT, run, this.instance, 0, null, null, inbox.at, result,
						Signal.encode(result.load().latency().histogram()), null);
			}
			catch (RuntimeException ex) {
				String why = (ex instanceof RunCancelledException) ? (this.running ? "stopped" : "shutting down")
						: Objects.requireNonNullElse(ex.getMessage(), ex.toString());
				report = new Signal(Type.RESULT, run, this.instance, 0, null, null, null, null, null, why);
			}
			this.channel.publish(report);
			if (report.result() != null) {
				awaitLeader(inbox, FleetResult.share(Objects.requireNonNull(call.spec()), mine), deadline);
			}
		}
		catch (RuntimeException ex) {
			log.warn("Fleet run {} ended on this member: {}", run, ex.getMessage());
		}
		finally {
			this.inboxes.remove(run);
			this.slots.release();
		}
	}

	/**
	 * The leader expires the whole run after its read-back, then says STOP; without it
	 * (the leader died, or the run's time is up) a member expires its share itself.
	 */
	private void awaitLeader(FleetInbox inbox, RunSpec share, long deadline) {
		try {
			inbox.await(inbox::over, deadline, () -> !this.running);
		}
		catch (RunCancelledException ex) {
			// Shutting down: expire it here rather than trust a leader that may be gone.
		}
		if (inbox.first(Type.STOP) == null) {
			this.shares.keysOf(share).expireRest();
		}
	}

	/** By the sweep ({@link AbandonedRuns}): shares whose leader is {@code gone} stop. */
	void stopOrphans(Predicate<String> gone) {
		this.inboxes.forEach((run, inbox) -> {
			if (inbox.leader != null && gone.test(run)) {
				inbox.orphan();
			}
		});
	}

	/** A STOP that cannot be sent is logged: the run is over either way. */
	private void sayStop(String run) {
		try {
			this.channel.publish(Signal.of(Type.STOP, run, this.instance));
		}
		catch (RuntimeException ex) {
			log.debug("Could not tell fleet run {} to stop: {}", run, ex.getMessage());
		}
	}

	/** By {@link RunExecutor}, whose pool runs the shares served here. */
	void start(Executor workers) {
		this.workers = workers;
		this.running = true;
		if (this.settings.join()) {
			this.channel.listen(this::onMessage);
		}
	}

	void stop() {
		this.running = false;
		this.channel.stop();
	}

}
