package dev.pipelininglab.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.KeyExpiryProperties;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.MemoryShape;
import dev.pipelininglab.redis.Preflight;
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

	/** How long a closing app waits for expiries still under way. */
	private static final Duration CLOSING_WAIT = Duration.ofSeconds(10);

	/**
	 * Expiries of stopped runs, one at a time: a stopped run answers, and frees its slot,
	 * at once rather than after an EXPIRE for each of the keys it was asked for.
	 */
	private final ExecutorService later = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "lab-expiry");
		thread.setDaemon(true);
		return thread;
	});

	private final Preflight preflight;

	private final ClusterLayout layout;

	private final DemoData data;

	private final Duration expireAfter;

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
	 */
	void preflight(RunSpec base, List<RunSpec> specs, boolean prepared, Function<RunSpec, KeySpace> keysOf) {
		this.preflight.check(demand(base, specs, prepared, keysOf));
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
		long count = base.count();
		long perPass = base.itemsPerPass();
		// Every variant rewrites the same keys; RPUSH alone only ever adds.
		return switch (base.operation()) {
			case SET -> strings(base, keys);
			case GET -> prepared ? strings(base, keys) : null;
			case RPOP -> collection(MemoryShape.LIST, base, keys, prepared ? perPass : count);
			case RPUSH -> collection(MemoryShape.LIST, base, keys, perPass * base.repeat() * specs.size());
			case LPUSH -> collection(MemoryShape.LIST, base, keys, perPass);
			case HSET -> collection(MemoryShape.HASH, base, keys, count);
			case SADD -> collection(MemoryShape.SET, base, keys, count);
			case ZADD -> collection(MemoryShape.ZSET, base, keys, count);
			case INCR, PING -> null;
		};
	}

	private Preflight.Part strings(RunSpec spec, KeySpace keys) {
		ClusterLayout.Spread spread = this.layout.ofKeys(keys, spec.count(), spec.batchSize());
		return new Preflight.Part(MemoryShape.STRING, spec.count(), spec.valueSize(), keys, spec.count() - 1,
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
	void expire(RunSpec base, List<RunSpec> specs, boolean prepared, Function<RunSpec, KeySpace> keysOf) {
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

	private void expire(RunSpec base, KeySpace keys, boolean prepared) {
		switch (base.operation()) {
			// A SET run with a ttl keeps its own.
			case SET -> {
				if (base.ttl() == null) {
					this.data.expireKeys(keys, base.count(), RunService.SETUP_BATCH, this.expireAfter);
				}
			}
			case GET -> {
				if (prepared) {
					this.data.expireKeys(keys, base.count(), RunService.SETUP_BATCH, this.expireAfter);
				}
			}
			case PING -> {
			}
			default -> {
				String key = base.operation().key(keys);
				if (key != null) {
					this.data.expire(key, this.expireAfter);
				}
			}
		}
	}

	/**
	 * {@link #expire} in the background, for a run that was stopped (cancelled, out of
	 * time, its caller gone, the app shutting down): it sends an EXPIRE for every key it
	 * was asked for, which for millions of keys takes seconds the answer need not wait.
	 */
	void expireLater(RunSpec base, List<RunSpec> specs, boolean prepared, Function<RunSpec, KeySpace> keysOf) {
		try {
			this.later.execute(() -> expire(base, specs, prepared, keysOf));
		}
		catch (RejectedExecutionException ex) {
			// Closing: the keys keep no expiry, DELETE /keys removes them.
			log.warn("Could not give the keys of a stopped {} run their expiry: the app is closing; DELETE /keys"
					+ " removes them", base.operation().label());
		}
	}

	/**
	 * Waits a bounded time for expiries under way, while Redis connections still exist.
	 */
	@Override
	public void destroy() throws InterruptedException {
		this.later.shutdown();
		if (!this.later.awaitTermination(CLOSING_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
			log.warn("Stopped waiting for the expiry of stopped runs' keys after {}; DELETE /keys removes them",
					CLOSING_WAIT);
			this.later.shutdownNow();
		}
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
