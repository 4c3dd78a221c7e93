package dev.pipelininglab.run;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.ItemCosts;
import dev.pipelininglab.redis.KeyExpiryProperties;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import dev.pipelininglab.redis.Preflight;
import dev.pipelininglab.redis.ServerCounters;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.task.ThreadPoolTaskExecutorBuilder;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.ExpirationOptions;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Component;

/**
 * What keeps a run from hurting a shared Redis, on the one measuring path: before it
 * writes anything, the memory preflight on what the whole request stores at its peak;
 * after it, however it ended, an expiry ({@code lab.keys.expire-after}) on the keys it
 * wrote ({@link Written}) and no others, so nothing stays for ever and a stop costs Redis
 * no more than what was written. Both are untimed.
 */
@Component
class Safeguards implements SmartLifecycle, DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(Safeguards.class);

	/**
	 * Redis 7.0 reads an argument of this size or more into a query buffer of exactly its
	 * size, then gives the connection a new empty one as large for the next (a 1 MiB SET
	 * leaves 1.25 MiB); its cron shrinks it about a second later. A comparison's variants
	 * run on connections of their own within that second, so their buffers add up: the 1
	 * MiB comparison of every variant, 8 MiB under maxmemory, evicted 230 keys in its
	 * last variant without this.
	 */
	static final int BIG_ARGUMENT = 32 * 1024;

	private static final Duration MAX_EXPIRY_WAIT = Duration.ofSeconds(60);

	/** How often a waiting run looks whether it was stopped. */
	private static final Duration CHECK_EVERY = Duration.ofMillis(100);

	private final Preflight preflight;

	private final ClusterLayout layout;

	private final RunKeys data;

	private final Duration expireAfter;

	/** Expiries given after the answer, so a cancel ends within a second or two. */
	private final Queue<Future<?>> pending = new ConcurrentLinkedQueue<>();

	private volatile boolean running;

	/**
	 * One thread, in order; not Boot's shared executor, whose shutdown may come first.
	 */
	private final ThreadPoolTaskExecutor later = new ThreadPoolTaskExecutorBuilder().threadNamePrefix("key-expiry-")
		.corePoolSize(1)
		.maxPoolSize(1)
		.build();

	private final WarmUp warmUp;

	private final KeySpace keys;

	/** Where the shutdown's deadline is. */
	private final RunSlots slots;

	private final Runners runners;

	Safeguards(Preflight preflight, ClusterLayout layout, RunKeys data, KeyExpiryProperties expiry, WarmUp warmUp,
			KeySpace keys, RunSlots slots, Runners runners) {
		this.slots = slots;
		this.runners = runners;
		this.warmUp = warmUp;
		this.keys = keys;
		this.preflight = preflight;
		this.layout = layout;
		this.data = data;
		this.expireAfter = expiry.expireAfter();
		this.later.setDaemon(true);
		this.later.initialize();
	}

	/** After the background expiries, whose EXPIREs must not run beside a timed pass. */
	ServerCounters.@Nullable Snapshot preflight(RunSpec base, List<RunSpec> specs, boolean prepared,
			RunObserver observer) {
		if (!awaitPending(MAX_EXPIRY_WAIT, observer)) {
			log.debug("A background expiry still runs after {}", MAX_EXPIRY_WAIT);
		}
		return this.preflight.check(demand(base, specs, prepared), (count) -> demand(base.withCount(count),
				specs.stream().map((spec) -> spec.withCount(count)).toList(), prepared));
	}

	/**
	 * The request's peak: its items, its largest warm-up (beside the items in a
	 * comparison, whose variants warm up while the one before left its keys), one round
	 * trip or set-up batch per client in the servers' buffers, and for large values the
	 * query buffer each connection keeps after one (below).
	 */
	Preflight.Demand demand(RunSpec base, List<RunSpec> specs, boolean prepared) {
		// The variants writing under one key pattern share their keys.
		List<Preflight.Part> parts = specs.stream()
			.map((spec) -> this.runners.of(spec).keySpace(this.keys))
			.collect(Collectors.groupingBy(KeySpace::keyPattern, LinkedHashMap::new, Collectors.toList()))
			.values()
			.stream()
			.map((layout) -> part(base, layout.get(0), layout.size(), prepared))
			.filter(Objects::nonNull)
			.toList();
		Preflight.Part warmUp = null;
		long buffers = 0;
		long kept = 0;
		for (RunSpec spec : specs) {
			BatchRunner runner = this.runners.of(spec);
			Preflight.Part part = part(this.warmUp.mostOf(runner, spec), runner.keySpace(this.keys.warmup()), 1, false);
			if (part != null && (warmUp == null || part.items() > warmUp.items())) {
				warmUp = part;
			}
			long roundTrip = Math.min(spec.count(), runner.perRoundTrip(spec.batchSize())) * spec.clients();
			// The read-back after a write answers a set-up batch of values at once.
			long setUp = Math.min(spec.count(), RunService.setupBatch(spec));
			// An item in a buffer: its value with the buffer's header as jemalloc sizes
			// it (1 MiB takes 1.25), key, protocol.
			long itemBytes = ItemCosts.allocated(Math.max(spec.valueSize(), 16) + 16) + 64;
			buffers = Math.max(buffers, Math.max(roundTrip, setUp) * itemBytes);
			if (spec.valueSize() >= BIG_ARGUMENT) {
				kept += spec.clients() * itemBytes;
			}
		}
		// The set-up's connection (a GET comparison's keys) and the preflight's sample.
		kept += (kept > 0) ? ItemCosts.allocated(base.valueSize() + 16) + 64 : 0;
		boolean stores = !parts.isEmpty() || warmUp != null;
		return new Preflight.Demand(base.count(), parts, (warmUp != null) ? List.of(warmUp) : List.of(),
				prepared && specs.size() > 1, stores ? buffers + kept : 0);
	}

	private Preflight.@Nullable Part part(RunSpec base, KeySpace keys, int variants, boolean prepared) {
		Command.Footprint footprint = base.operation().command().footprint(base, variants, prepared);
		if (footprint == null) {
			return null;
		}
		long items = footprint.items();
		String key = base.operation().key(keys);
		ClusterLayout.Spread spread = (footprint.shape() == MemoryShape.STRING)
				? this.layout.ofKeys(keys, items, base.batchSize())
				: (key != null) ? this.layout.ofKey(key, items, base.batchSize()) : null;
		return new Preflight.Part(footprint.shape(), items, base.valueSize(), keys, base.count() - 1,
				(spread != null) ? spread.keysPerNode() : null);
	}

	/** A failure is logged, not answered: the run itself is over. */
	private void expire(RunSpec base, Written written) {
		try {
			written.expire(this.data, this.expireAfter, ExpirationOptions.Condition.ALWAYS);
		}
		catch (DataAccessException ex) {
			log.warn("Could not give the keys of a {} run their expiry (lab.keys.expire-after); DELETE /keys removes"
					+ " them: {}", base.operation().label(), ex.getMessage());
		}
	}

	/**
	 * After a death: every key a record says its run may have written gets the expiry a
	 * run leaves; {@code keep} ({@code NX}) leaves the expiry a key has, a user's
	 * {@code ttl} too. Failures are thrown: the record stays to be swept again.
	 */
	void expireAbandoned(List<KeySpace.Range> ranges, boolean keep) {
		Written.of(ranges)
			.expire(this.data, this.expireAfter,
					keep ? ExpirationOptions.Condition.NX : ExpirationOptions.Condition.ALWAYS);
	}

	/**
	 * Runs {@code work}, then expires the keys it wrote, so a stop sends at most one
	 * EXPIRE per key written. After a cancel or a refused command in the background; not
	 * after a lost connection or a timeout, which would only wait on the same server.
	 */
	<T> T leavingExpiry(RunSpec base, Written written, Supplier<T> work) {
		T done;
		try {
			done = work.get();
		}
		catch (RunCancelledException ex) {
			expireLater(base, written);
			throw ex;
		}
		catch (RunFailedException ex) {
			if (ex.rejected() > 0) {
				expireLater(base, written);
			}
			throw ex;
		}
		expire(base, written);
		return done;
	}

	private void expireLater(RunSpec base, Written written) {
		try {
			this.pending.add(this.later.submit(() -> expire(base, written)));
		}
		catch (RejectedExecutionException ex) {
			log.debug("Shutting down: the keys of the stopped run keep no expiry; DELETE /keys removes them");
		}
	}

	/** In slices, so a stopped run is not kept waiting; false past {@code limit}. */
	private boolean awaitPending(Duration limit, RunObserver observer) {
		long deadline = System.nanoTime() + limit.toNanos();
		Future<?> next;
		while ((next = this.pending.peek()) != null) {
			try {
				next.get(CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
				this.pending.remove(next);
			}
			catch (TimeoutException ex) {
				RunCancelledException.throwIf(observer);
				if (System.nanoTime() - deadline > 0) {
					return false;
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return true;
			}
			catch (ExecutionException ex) {
				this.pending.remove(next);
				log.debug("A background expiry did not finish: {}", ex.toString());
			}
		}
		return true;
	}

	/**
	 * Runs stopped in earlier phases still expire their keys before Redis closes, within
	 * what is left of the shutdown's one budget ({@code lab.jobs.shutdown-wait}, from
	 * when the slots closed), not a wait of their own after it. A stopped context may
	 * start again (test contexts are paused), so the executor lives until
	 * {@link #destroy}.
	 */
	@Override
	public void stop() {
		this.running = false;
		Duration left = this.slots.shutdownLeft();
		if (!awaitPending(left, RunObserver.NONE)) {
			log.warn("Closing before the keys of a stopped run all had their expiry ({} of lab.jobs.shutdown-wait"
					+ " were left); DELETE /keys removes them", left);
		}
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public void destroy() {
		this.later.getThreadPoolExecutor().shutdownNow();
	}

	/** After the runs have stopped, before the connection factory (phase 0). */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4096;
	}

}
