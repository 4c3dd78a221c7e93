package dev.pipelininglab.job;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

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
 * merges what they report ({@link FleetResult}). A member runs its share on
 * {@link RunJobs}' executor holding one of its run slots ({@link RunSlots}), like any
 * run.
 * <p>
 * Coordination is pub/sub only, all of it outside the timed passes: nothing of it stays
 * in Redis, and a lost message counts as a member that did not join or report, which the
 * record names.
 */
@Component
class FleetRuns {

	private static final Logger log = LoggerFactory.getLogger(FleetRuns.class);

	/** Enough for PUBLISH to reach every member. */
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

	/** The runs this instance leads or serves, by id. */
	private final Map<String, Inbox> inboxes = new ConcurrentHashMap<>();

	private volatile @Nullable RedisMessageListenerContainer listener;

	private volatile @Nullable Executor workers;

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

	String instance() {
		return this.instance;
	}

	/** Leads the fleet run of {@code job}, its own share on the job's thread and slot. */
	RunPlan.Outcome lead(Job job) {
		RunSpec whole = job.plan.base();
		int asked = job.plan.instances();
		// Before any member is called: what the whole fleet stores must fit.
		this.runs.preflight(whole, job);
		Inbox inbox = new Inbox();
		this.inboxes.put(job.id, inbox);
		try {
			publish(new Signal(Type.CALL, job.id, this.instance, whole, null, null, null, null, null));
			long joinBy = System.nanoTime() + this.settings.joinTimeout().toNanos();
			List<String> names = List.of(this.instance);
			while (names.size() < asked && System.nanoTime() - joinBy < 0) {
				int known = names.size() - 1;
				await(inbox, () -> inbox.all(Type.JOIN).size() > known, joinBy, job::cancelled);
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
			publish(new Signal(Type.PLAN, job.id, this.instance, null, planned, null, null, null, null));
			job.fleet("starting " + size + " of " + asked,
					new Fleet(asked, size, null, null, Fleet.COORDINATION, planned));
			Fleet.Share own = Objects.requireNonNull(planned.get(0).share());
			job.beforeTiming = () -> startLeading(job, inbox, size);
			RunResult result = this.runs.run(whole.share(own.from(), own.to()), job);
			long ownEnd = System.nanoTime();
			// The others get as long again as this one took, and the join timeout.
			long resultsBy = Math.min(ownEnd + (ownEnd - inbox.signalled) + this.settings.joinTimeout().toNanos(),
					inbox.signalled + this.maxRunTime.toNanos());
			await(inbox, () -> inbox.all(Type.RESULT).size() >= size - 1, resultsBy, job::cancelled);
			Map<String, Signal> results = new HashMap<>();
			inbox.all(Type.RESULT).forEach((report) -> results.put(report.instance(), report));
			results.put(this.instance,
					new Signal(Type.RESULT, job.id, this.instance, null, null, inbox.at, result, null, null));
			FleetResult merged = FleetResult.of(asked, planned, results, this.counters.between(
					Objects.requireNonNull(inbox.before), this.counters.snapshot(), !whole.operation().writesKeys()));
			merged.stopped().forEach((member) -> expire(whole, member));
			job.fleet("done", merged.fleet());
			return new RunPlan.Outcome(List.of(merged.result()), null, merged.summary(), merged.result());
		}
		finally {
			this.inboxes.remove(job.id);
			// Members still running (slow, or never told to start) stop and expire what
			// they wrote themselves.
			publish(signal(Type.STOP, job.id));
		}
	}

	/**
	 * Waits (within the join timeout) for every member to be ready, then starts them all.
	 */
	private void startLeading(Job job, Inbox inbox, int members) {
		await(inbox, () -> inbox.all(Type.READY).size() >= members - 1,
				System.nanoTime() + this.settings.joinTimeout().toNanos(), job::cancelled);
		inbox.before = this.counters.snapshot();
		long at = redisMicros() + START_MARGIN_MICROS;
		inbox.signalled = System.nanoTime();
		publish(new Signal(Type.GO, job.id, this.instance, null, null, at, null, null, null));
		inbox.at = startAt(at, job::cancelled);
	}

	private long redisMicros() {
		return Objects.requireNonNull(this.redis
			.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MICROSECONDS)));
	}

	/**
	 * Waits until Redis' clock reads {@code at}, as near as one {@code TIME} tells.
	 * @return Redis' clock at the start, for the skew between members
	 */
	private long startAt(@Nullable Long at, BooleanSupplier cancelled) {
		long until = System.nanoTime() + (Objects.requireNonNull(at) - redisMicros()) * 1000;
		while (System.nanoTime() - until < 0) {
			if (cancelled.getAsBoolean()) {
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
		if (signal.type() == Type.CALL) {
			join(signal);
			return;
		}
		Inbox inbox = this.inboxes.get(signal.run());
		if (inbox != null) {
			synchronized (inbox) {
				inbox.signals.add(signal);
				inbox.notifyAll();
			}
		}
	}

	/** Answers a call when a run slot is free here, then serves the share it is given. */
	private void join(Signal call) {
		Executor pool = this.workers;
		if (pool == null || !this.running || call.spec() == null || !this.slots.takeFree()) {
			return;
		}
		Inbox inbox = new Inbox();
		this.inboxes.put(call.run(), inbox);
		try {
			pool.execute(() -> serve(call, inbox));
		}
		catch (RejectedExecutionException ex) {
			this.inboxes.remove(call.run());
			this.slots.release();
		}
	}

	private void serve(Signal call, Inbox inbox) {
		String run = call.run();
		BooleanSupplier stopped = () -> !this.running || inbox.first(Type.STOP) != null;
		try {
			publish(signal(Type.JOIN, run));
			await(inbox, () -> inbox.first(Type.PLAN) != null,
					System.nanoTime() + this.settings.joinTimeout().toNanos() * 2, stopped);
			Fleet.Share mine = Stream.ofNullable(inbox.first(Type.PLAN))
				.flatMap((plan) -> Objects.requireNonNull(plan.members()).stream())
				.filter((member) -> member.instance().equals(this.instance))
				.map(Fleet.Member::share)
				.filter(Objects::nonNull)
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
						publish(signal(Type.READY, run));
						await(inbox, () -> inbox.first(Type.GO) != null, Long.MAX_VALUE, this::cancelled);
						inbox.at = startAt(Objects.requireNonNull(inbox.first(Type.GO)).at(), this::cancelled);
					}
				}

				@Override
				public boolean cancelled() {
					return stopped.getAsBoolean() || System.nanoTime() - deadline > 0;
				}
			};
			Signal report;
			try {
				RunResult result = this.runs.run(Objects.requireNonNull(call.spec()).share(mine.from(), mine.to()),
						observer);
				Histogram histogram = result.load().latency().histogram();
				report = new Signal(Type.RESULT, run, this.instance, null, null, inbox.at, result,
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
			this.inboxes.remove(run);
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

	private static byte[] encode(Histogram histogram) {
		ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
		return Arrays.copyOf(buffer.array(), histogram.encodeIntoCompressedByteBuffer(buffer));
	}

	private static void await(Object lock, BooleanSupplier done, long deadline, BooleanSupplier cancelled) {
		synchronized (lock) {
			while (!done.getAsBoolean() && System.nanoTime() - deadline < 0) {
				if (cancelled.getAsBoolean()) {
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

	/**
	 * By {@link RunJobs}, whose executor runs the shares served here and whose stop waits
	 * for them.
	 */
	void start(Executor workers) {
		this.workers = workers;
		this.running = true;
		if (!this.settings.join()) {
			return;
		}
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(Objects.requireNonNull(this.redis.getConnectionFactory(),
				"StringRedisTemplate has a connection factory"));
		container.addMessageListener((message, pattern) -> onMessage(message.getBody()), ChannelTopic.of(this.channel));
		container.afterPropertiesSet();
		container.start();
		this.listener = container;
	}

	/** Stops the shares this instance serves; each reports that it stopped. */
	void stop() {
		this.running = false;
		RedisMessageListenerContainer container = this.listener;
		if (container != null) {
			container.stop();
		}
	}

	enum Type {

		CALL, JOIN, PLAN, READY, GO, RESULT, STOP

	}

	/**
	 * One fleet message; each type fills in what it carries ({@code spec} the CALL,
	 * {@code members} the PLAN, {@code at} by Redis' clock in microseconds).
	 */
	record Signal(Type type, String run, String instance, @Nullable RunSpec spec, @Nullable List<Fleet.Member> members,
			@Nullable Long at, @Nullable RunResult result, byte @Nullable [] histogram, @Nullable String problem) {
	}

	/**
	 * What one fleet run has heard, guarded by itself, and when it started: by this
	 * instance's clock and Redis', and the leader's INFO then.
	 */
	private static final class Inbox {

		final List<Signal> signals = new ArrayList<>();

		volatile long signalled;

		volatile long at;

		volatile ServerCounters.@Nullable Snapshot before;

		synchronized List<Signal> all(Type type) {
			return this.signals.stream().filter((signal) -> signal.type() == type).toList();
		}

		@Nullable Signal first(Type type) {
			return all(type).stream().findFirst().orElse(null);
		}

	}

}
