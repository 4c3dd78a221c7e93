package dev.pipelininglab.job;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.zip.DataFormatException;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.run.RunCancelledException;
import dev.pipelininglab.run.RunObserver;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.RunSlots;
import dev.pipelininglab.run.RunSpec;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * Fleet runs: one measurement from several app instances that share a Redis and a key
 * prefix, each started with {@code lab.fleet.join=true}. The instance that took the
 * request (the leader) preflights the whole run, calls for members on the channel
 * {@code <prefix>:fleet}, gives the first to join each a contiguous share of the items
 * (as clients split a run), starts every timed pass at one moment of Redis' clock, and
 * merges what they report ({@link FleetResult}). A member runs its share on a thread of
 * its own holding one of its run slots ({@link RunSlots}), like any run.
 * <p>
 * Coordination is pub/sub only, all of it outside the timed passes: nothing of it stays
 * in Redis, and a lost message counts as a member that did not join or report, which the
 * record names.
 */
@Component
class FleetRuns implements SmartLifecycle {

	static final String COORDINATION = "Coordinated through the measured Redis, outside every timed pass: PUBLISH on"
			+ " <prefix>:fleet to call, join, share, get ready, start, report and stop; TIME twice per member to"
			+ " start at one moment of Redis' clock and measure the skew; INFO read by the leader around all passes.";

	private static final Logger log = LoggerFactory.getLogger(FleetRuns.class);

	/**
	 * Between the start signal and the start: enough for PUBLISH to reach every member.
	 */
	private static final long START_MARGIN_MICROS = 200_000;

	private static final long CHECK_MILLIS = 100;

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	private final String channel;

	private final FleetProperties settings;

	private final RunService runs;

	private final RunSlots slots;

	private final ServerCounters counters;

	private final Duration maxRunTime;

	private final String instance;

	/** The fleet runs this instance leads, by run id. */
	private final Map<String, Lead> leads = new ConcurrentHashMap<>();

	/** The fleet runs this instance joined as a member, by run id. */
	private final Map<String, Share> shares = new ConcurrentHashMap<>();

	private volatile @Nullable RedisMessageListenerContainer listener;

	private volatile @Nullable ExecutorService members;

	private volatile boolean running;

	FleetRuns(StringRedisTemplate redis, JsonMapper json, KeySpace keys, FleetProperties settings, RunService runs,
			RunSlots slots, ServerCounters counters, LimitProperties limits) {
		this.redis = redis;
		this.json = json.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
		this.channel = keys.prefix() + ":fleet";
		this.settings = settings;
		this.runs = runs;
		this.slots = slots;
		this.counters = counters;
		this.maxRunTime = limits.maxRunTime();
		// Host and pid for people; the suffix tells apart two app contexts in one JVM.
		this.instance = Objects.requireNonNullElse(System.getenv("HOSTNAME"), "localhost") + ":"
				+ ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 4);
	}

	/** This instance's name in run records, problems and fleets. */
	String instance() {
		return this.instance;
	}

	/**
	 * Leads the fleet run of {@code job}: its own share runs on the job's thread, in the
	 * job's run slot.
	 */
	PlanMeasurement.Outcome lead(Job job) {
		RunSpec whole = job.plan.base();
		int asked = job.plan.instances();
		// Before any member is called: what the whole fleet stores must fit.
		this.runs.preflight(whole, job);
		Lead lead = new Lead();
		this.leads.put(job.id, lead);
		try {
			publish(new Signal(Type.CALL, job.id, this.instance, whole, null, null, null, null, null));
			long joinBy = System.nanoTime() + this.settings.joinTimeout().toNanos();
			List<String> names = List.of(this.instance);
			while (names.size() < asked && System.nanoTime() - joinBy < 0) {
				int known = names.size() - 1;
				await(lead, () -> lead.joined.size() > known, joinBy, job);
				names = lead.members(this.instance, asked);
				job.fleet("joining: " + names.size() + " of " + asked, new Fleet(asked, names.size(), null, null,
						COORDINATION, names.stream().map(Fleet.Member::joined).toList()));
			}
			List<Fleet.Member> planned = new ArrayList<>();
			for (int k = 0; k < names.size(); k++) {
				planned.add(new Fleet.Member(names.get(k),
						new Fleet.Share(whole.count() * k / names.size(), whole.count() * (k + 1) / names.size()), null,
						null, null, null, null, null, null));
			}
			publish(new Signal(Type.PLAN, job.id, this.instance, null, planned, null, null, null, null));
			job.fleet("starting " + planned.size() + " of " + asked,
					new Fleet(asked, planned.size(), null, null, COORDINATION, planned));
			Fleet.Share own = Objects.requireNonNull(planned.get(0).share());
			Start start = new Start();
			job.beforeTiming(() -> startLeading(job, lead, planned.size(), start));
			RunResult result = this.runs.run(whole.share(own.from(), own.to()), job);
			long ownEnd = System.nanoTime();
			// The others get as long again as this one took from the start, and the join
			// timeout, within max-run-time.
			long resultsBy = Math.min(ownEnd + (ownEnd - start.signalled) + this.settings.joinTimeout().toNanos(),
					start.signalled + this.maxRunTime.toNanos());
			await(lead, () -> lead.results.size() >= planned.size() - 1, resultsBy, job);
			ServerCounters.Snapshot after = this.counters.snapshot();
			Map<String, Signal> results;
			synchronized (lead) {
				results = new HashMap<>(lead.results);
			}
			results.put(this.instance,
					new Signal(Type.RESULT, job.id, this.instance, null, null, start.at, result, null, null));
			FleetResult merged = FleetResult.of(asked, planned, results, this::histogram, this.counters
				.between(Objects.requireNonNull(start.before), after, !whole.operation().writesKeys()));
			merged.stopped().forEach((member) -> expire(whole, member));
			job.fleet("done", merged.fleet());
			return new PlanMeasurement.Outcome(List.of(merged.result()), null, merged.summary(), merged.result());
		}
		finally {
			this.leads.remove(job.id);
			// Members still running (slow, or never told to start) stop and expire what
			// they wrote themselves.
			publish(signal(Type.STOP, job.id));
		}
	}

	/**
	 * The leader's own timed pass is about to start: waits (within the join timeout) for
	 * every member to be ready, then starts them all at one moment of Redis' clock.
	 */
	private void startLeading(Job job, Lead lead, int members, Start start) {
		await(lead, () -> lead.ready.size() >= members - 1, System.nanoTime() + this.settings.joinTimeout().toNanos(),
				job);
		start.before = this.counters.snapshot();
		long at = redisMicros() + START_MARGIN_MICROS;
		start.signalled = System.nanoTime();
		publish(new Signal(Type.GO, job.id, this.instance, null, null, at, null, null, null));
		start.at = startAt(at, job);
	}

	/** Redis' clock, in microseconds since the epoch. */
	private long redisMicros() {
		return Objects.requireNonNull(this.redis
			.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MICROSECONDS)));
	}

	/**
	 * Waits until Redis' clock reads {@code at}, as near as this instance can tell from
	 * one {@code TIME}.
	 * @return Redis' clock at the start, for the skew between members
	 */
	private long startAt(@Nullable Long at, RunObserver observer) {
		long until = System.nanoTime() + (Objects.requireNonNull(at) - redisMicros()) * 1000;
		while (System.nanoTime() - until < 0) {
			if (observer.cancelled()) {
				throw new RunCancelledException();
			}
			LockSupport.parkNanos(Math.min(until - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(CHECK_MILLIS)));
		}
		return redisMicros();
	}

	/** A member that never reported: its whole share gets its expiry. */
	private void expire(RunSpec whole, Fleet.Member member) {
		Fleet.Share share = Objects.requireNonNull(member.share());
		try {
			this.runs.expireAll(whole.share(share.from(), share.to()));
		}
		catch (RuntimeException ex) {
			log.warn("Could not give the share of {} its expiry; DELETE /keys removes it: {}", member.instance(),
					ex.getMessage());
		}
	}

	private void onMessage(byte[] body) {
		Signal signal;
		try {
			signal = this.json.readValue(body, Signal.class);
		}
		catch (RuntimeException ex) {
			log.warn("Ignoring an unreadable fleet message: {}", ex.getMessage());
			return;
		}
		if (signal.instance().equals(this.instance)) {
			return;
		}
		switch (signal.type()) {
			case CALL -> join(signal);
			case PLAN, GO, STOP -> {
				Share share = this.shares.get(signal.run());
				if (share != null) {
					synchronized (share) {
						share.signals.add(signal);
						share.notifyAll();
					}
				}
			}
			case JOIN, READY, RESULT -> {
				Lead lead = this.leads.get(signal.run());
				if (lead != null) {
					synchronized (lead) {
						switch (signal.type()) {
							case JOIN -> lead.joined.add(signal.instance());
							case READY -> lead.ready.add(signal.instance());
							default -> lead.results.put(signal.instance(), signal);
						}
						lead.notifyAll();
					}
				}
			}
		}
	}

	/** Answers a call when a run slot is free here, then serves the share it is given. */
	private void join(Signal call) {
		ExecutorService pool = this.members;
		if (pool == null || !this.running || call.spec() == null || !this.slots.takeFree()) {
			return;
		}
		Share share = new Share(call);
		this.shares.put(call.run(), share);
		try {
			pool.execute(() -> serve(share));
		}
		catch (RejectedExecutionException ex) {
			this.shares.remove(call.run());
			this.slots.release();
		}
	}

	private void serve(Share share) {
		String run = share.call.run();
		try {
			publish(signal(Type.JOIN, run));
			long planBy = System.nanoTime() + this.settings.joinTimeout().toNanos() * 2;
			await(share, () -> share.signal(Type.PLAN) != null, planBy, share.stopped(planBy, null));
			Signal plan = share.signal(Type.PLAN);
			List<Fleet.Member> planned = (plan != null) ? plan.members() : null;
			Fleet.Share mine = Objects.requireNonNullElse(planned, List.<Fleet.Member>of())
				.stream()
				.filter((member) -> member.instance().equals(this.instance))
				.map(Fleet.Member::share)
				.filter(Objects::nonNull)
				.findFirst()
				.orElse(null);
			if (mine == null) {
				return;
			}
			Start start = new Start();
			RunObserver stopped = share.stopped(System.nanoTime() + this.maxRunTime.toNanos(), () -> {
				publish(signal(Type.READY, run));
				await(share, () -> share.signal(Type.GO) != null, Long.MAX_VALUE, share.stopped(Long.MAX_VALUE, null));
				start.at = startAt(Objects.requireNonNull(share.signal(Type.GO)).at(),
						share.stopped(Long.MAX_VALUE, null));
			});
			Signal report;
			try {
				RunResult result = this.runs
					.run(Objects.requireNonNull(share.call.spec()).share(mine.from(), mine.to()), stopped);
				Histogram histogram = result.load().latency().histogram();
				report = new Signal(Type.RESULT, run, this.instance, null, null, start.at, result,
						(histogram != null) ? encode(histogram) : null, null);
			}
			catch (RuntimeException ex) {
				String why = (ex instanceof RunCancelledException) ? (this.running ? "stopped" : "shutting down")
						: Objects.requireNonNullElse(ex.getMessage(), ex.toString());
				report = new Signal(Type.RESULT, run, this.instance, null, null, null, null, null, why);
			}
			publish(report);
		}
		catch (RuntimeException ex) {
			log.warn("Fleet run {} ended on this member: {}", run, ex.getMessage());
		}
		finally {
			this.shares.remove(run);
			this.slots.release();
		}
	}

	private Signal signal(Type type, String run) {
		return new Signal(type, run, this.instance, null, null, null, null, null, null);
	}

	private void publish(Signal signal) {
		try {
			this.redis.convertAndSend(this.channel, this.json.writeValueAsString(signal));
		}
		catch (RuntimeException ex) {
			if (signal.type() != Type.STOP) {
				throw ex;
			}
			log.debug("Could not tell fleet run {} to stop: {}", signal.run(), ex.getMessage());
		}
	}

	private static String encode(Histogram histogram) {
		ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
		int length = histogram.encodeIntoCompressedByteBuffer(buffer);
		return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
	}

	/** A member's histogram: the leader's own as measured, the others' as sent. */
	private @Nullable Histogram histogram(Signal result) {
		RunResult run = result.result();
		if (result.histogram() == null) {
			return (run != null) ? run.load().latency().histogram() : null;
		}
		try {
			return Histogram
				.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(result.histogram())), 0);
		}
		catch (DataFormatException | IllegalArgumentException ex) {
			log.warn("Ignoring the unreadable latency histogram of {}: {}", result.instance(), ex.getMessage());
			return null;
		}
	}

	/**
	 * Waits on {@code lock} until {@code done}, or until {@code deadline} passes.
	 * @throws RunCancelledException when {@code observer} is cancelled meanwhile
	 */
	private static void await(Object lock, BooleanSupplier done, long deadline, RunObserver observer) {
		synchronized (lock) {
			while (!done.getAsBoolean() && System.nanoTime() - deadline < 0) {
				if (observer.cancelled()) {
					throw new RunCancelledException();
				}
				try {
					lock.wait(CHECK_MILLIS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new RunCancelledException();
				}
			}
		}
	}

	@Override
	public void start() {
		this.running = true;
		if (!this.settings.join()) {
			return;
		}
		this.members = Executors.newCachedThreadPool(RunJobs.daemonThreads("fleet-member-"));
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(Objects.requireNonNull(this.redis.getConnectionFactory(),
				"StringRedisTemplate has a connection factory"));
		container.addMessageListener((message, pattern) -> onMessage(message.getBody()), ChannelTopic.of(this.channel));
		container.afterPropertiesSet();
		container.start();
		this.listener = container;
	}

	/** Stops the shares this instance runs for others; each reports that it stopped. */
	@Override
	public void stop() {
		this.running = false;
		ExecutorService pool = this.members;
		if (pool != null) {
			pool.shutdown();
			try {
				pool.awaitTermination(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		RedisMessageListenerContainer container = this.listener;
		if (container != null) {
			container.stop();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Stops with the jobs, before Redis connections close. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE;
	}

	enum Type {

		CALL, JOIN, PLAN, READY, GO, RESULT, STOP

	}

	/**
	 * One fleet message; each type fills in what it carries.
	 *
	 * @param run the fleet run's id
	 * @param instance who sends it
	 * @param spec CALL: the whole run
	 * @param members PLAN: every member with its share, the leader first
	 * @param at GO: when to start, RESULT: when this member started, by Redis' clock in
	 * microseconds
	 * @param result RESULT: what the member's share measured
	 * @param histogram RESULT: its latency histogram, HdrHistogram's compressed encoding
	 * in Base64
	 * @param problem RESULT: why the member has no result
	 */
	record Signal(Type type, String run, String instance, @Nullable RunSpec spec, @Nullable List<Fleet.Member> members,
			@Nullable Long at, @Nullable RunResult result, @Nullable String histogram, @Nullable String problem) {
	}

	/** What the leader hears from its members; guarded by itself. */
	private static final class Lead {

		final List<String> joined = new ArrayList<>();

		final Set<String> ready = new HashSet<>();

		final Map<String, Signal> results = new HashMap<>();

		/** The leader, then the first to join, up to {@code asked}. */
		synchronized List<String> members(String leader, int asked) {
			List<String> names = new ArrayList<>(List.of(leader));
			names.addAll(this.joined.subList(0, Math.min(asked - 1, this.joined.size())));
			return names;
		}

	}

	/** A share this instance joined; guarded by itself. */
	private final class Share {

		final Signal call;

		final List<Signal> signals = new ArrayList<>();

		Share(Signal call) {
			this.call = call;
		}

		synchronized @Nullable Signal signal(Type type) {
			return this.signals.stream().filter((signal) -> signal.type() == type).findFirst().orElse(null);
		}

		/**
		 * Stopped by its leader, by this instance's shutdown or at {@code deadline}; runs
		 * {@code beforeTiming} before its timed pass.
		 */
		RunObserver stopped(long deadline, @Nullable Runnable beforeTiming) {
			return new RunObserver() {
				@Override
				public void phase(Phase phase, String variant, int batchSize, long commands) {
					if (phase == Phase.TIMING && beforeTiming != null) {
						beforeTiming.run();
					}
				}

				@Override
				public boolean cancelled() {
					return !FleetRuns.this.running || signal(Type.STOP) != null || System.nanoTime() - deadline > 0;
				}
			};
		}

	}

	/** When a member started, by its clock and by Redis', and the leader's INFO then. */
	private static final class Start {

		volatile long signalled;

		volatile long at;

		volatile ServerCounters.@Nullable Snapshot before;

	}

}
