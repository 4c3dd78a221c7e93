package dev.pipelininglab.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.KeyExpiryProperties;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import dev.pipelininglab.redis.Preflight;
import dev.pipelininglab.redis.ServerCounters;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * What keeps a run from hurting a shared Redis, on the one measuring path: before it
 * writes anything, the memory preflight on what it will store at its peak; after it, an
 * expiry on every key it leaves ({@code lab.keys.expire-after}), so nothing stays for
 * ever. Both are untimed.
 */
@Component
class Safeguards implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(Safeguards.class);

	/** The longest a run waits for an earlier run's background expiry. */
	private static final Duration MAX_EXPIRY_WAIT = Duration.ofSeconds(60);

	private final Preflight preflight;

	private final ClusterLayout layout;

	private final DemoData data;

	private final Duration expireAfter;

	/**
	 * Gives a cancelled or failed run's keys their expiry after its answer: a cancel must
	 * end within a second or two, and a run cancelled while writing millions of keys
	 * would otherwise wait for millions of EXPIREs.
	 */
	private final Queue<Future<?>> pending = new ConcurrentLinkedQueue<>();

	private final ExecutorService later = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "key-expiry");
		thread.setDaemon(true);
		return thread;
	});

	Safeguards(Preflight preflight, ClusterLayout layout, DemoData data, KeyExpiryProperties expiry) {
		this.preflight = preflight;
		this.layout = layout;
		this.data = data;
		this.expireAfter = expiry.expireAfter();
	}

	/**
	 * Refuses the run ({@link dev.pipelininglab.redis.RunRefusedException}) when what it
	 * stores at its peak does not fit.
	 * @param specs every variant or batch size the run measures (one for a single run)
	 * @param prepared whether the run prepares its state (compare, sweep), so GET and
	 * RPOP write their keys or list first
	 * @param keysOf the key layout each spec writes under
	 * @return the servers' counters before anything was written; null when the preflight
	 * read none
	 */
	ServerCounters.@Nullable Snapshot preflight(RunSpec base, List<RunSpec> specs, boolean prepared,
			Function<RunSpec, KeySpace> keysOf) {
		awaitExpiries();
		return this.preflight.check(demand(base, specs, prepared, keysOf));
	}

	/** What the run stores at its peak, for the preflight and its tests. */
	Preflight.Demand demand(RunSpec base, List<RunSpec> specs, boolean prepared, Function<RunSpec, KeySpace> keysOf) {
		List<Preflight.Part> parts = new ArrayList<>();
		for (Map.Entry<KeySpace, List<RunSpec>> layout : layouts(specs, keysOf).entrySet()) {
			Preflight.Part part = part(base, layout.getKey(), layout.getValue(), prepared);
			if (part != null) {
				parts.add(part);
			}
		}
		return new Preflight.Demand(base.count(), parts);
	}

	private Preflight.@Nullable Part part(RunSpec base, KeySpace keys, List<RunSpec> specs, boolean prepared) {
		Footprint footprint = base.operation().command().footprint(base, specs.size(), prepared);
		if (footprint == null) {
			return null;
		}
		return (footprint.shape() == MemoryShape.STRING) ? strings(base, keys, footprint.items())
				: collection(footprint.shape(), base, keys, footprint.items());
	}

	/**
	 * {@code items} keys of their own: {@code count}, or fewer when the run walks a
	 * smaller key space.
	 */
	private Preflight.Part strings(RunSpec spec, KeySpace keys, long items) {
		ClusterLayout.Spread spread = this.layout.ofKeys(keys, items, spec.batchSize());
		return new Preflight.Part(MemoryShape.STRING, items, spec.valueSize(), keys, spec.count() - 1,
				(spread != null) ? spread.keysPerNode() : null);
	}

	private Preflight.Part collection(MemoryShape shape, RunSpec spec, KeySpace keys, long items) {
		String key = spec.operation().key(keys);
		ClusterLayout.Spread spread = (key != null) ? this.layout.ofKey(key, items, spec.batchSize()) : null;
		return new Preflight.Part(shape, items, spec.valueSize(), keys, spec.count() - 1,
				(spread != null) ? spread.keysPerNode() : null);
	}

	/**
	 * Gives what the run leaves an expiry; a failure is logged, not answered, as the run
	 * itself is over.
	 */
	private void expire(RunSpec base, List<RunSpec> specs, boolean prepared, Function<RunSpec, KeySpace> keysOf) {
		try {
			for (KeySpace keys : layouts(specs, keysOf).keySet()) {
				expire(base, keys, prepared);
			}
		}
		catch (DataAccessException ex) {
			log.warn("Could not give the keys of a {} run their expiry (lab.keys.expire-after); DELETE /keys removes"
					+ " them: {}", base.operation().label(), ex.getMessage());
		}
	}

	/**
	 * Runs {@code work}, then gives what it left an expiry: also after a cancel or a
	 * refused command, when Redis still answers (then in the background, so the answer
	 * does not wait for it), but not after a lost connection or a timeout, which would
	 * only wait on the same server again.
	 */
	<T> T leavingExpiry(RunSpec base, List<RunSpec> specs, boolean prepared, Function<RunSpec, KeySpace> keysOf,
			Supplier<T> work) {
		T done;
		try {
			done = work.get();
		}
		catch (RunCancelledException ex) {
			expireLater(base, specs, prepared, keysOf);
			throw ex;
		}
		catch (RunFailedException ex) {
			if (ex.rejected() > 0) {
				expireLater(base, specs, prepared, keysOf);
			}
			throw ex;
		}
		expire(base, specs, prepared, keysOf);
		return done;
	}

	/** {@link #expire} on a thread of its own, so a cancel ends at once. */
	private void expireLater(RunSpec base, List<RunSpec> specs, boolean prepared, Function<RunSpec, KeySpace> keysOf) {
		try {
			this.pending.add(this.later.submit(() -> expire(base, specs, prepared, keysOf)));
		}
		catch (RejectedExecutionException ex) {
			log.debug("Shutting down: the keys of the stopped run keep no expiry; DELETE /keys removes them");
		}
	}

	/**
	 * Waits (bounded) for expiries still being given in the background: their EXPIREs
	 * must not run beside the next run's timed pass, whose figures they would skew.
	 */
	private void awaitExpiries() {
		Future<?> next;
		while ((next = this.pending.poll()) != null) {
			try {
				next.get(MAX_EXPIRY_WAIT.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (ExecutionException | TimeoutException ex) {
				log.debug("A background expiry did not finish: {}", ex.toString());
			}
		}
	}

	@Override
	public void destroy() {
		this.later.shutdownNow();
	}

	private void expire(RunSpec base, KeySpace keys, boolean prepared) {
		base.operation().command().expire(this.data, base, keys, this.expireAfter, prepared);
	}

	/** The specs by the key layout they write under, in order. */
	private static Map<KeySpace, List<RunSpec>> layouts(List<RunSpec> specs, Function<RunSpec, KeySpace> keysOf) {
		Map<String, KeySpace> byPattern = new LinkedHashMap<>();
		Map<KeySpace, List<RunSpec>> layouts = new LinkedHashMap<>();
		for (RunSpec spec : specs) {
			KeySpace keys = byPattern.computeIfAbsent(keysOf.apply(spec).keyPattern(), (pattern) -> keysOf.apply(spec));
			layouts.computeIfAbsent(keys, (k) -> new ArrayList<>()).add(spec);
		}
		return layouts;
	}

}
