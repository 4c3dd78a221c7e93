package dev.pipelininglab.run;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.NodeRoundTrips;
import dev.pipelininglab.redis.Ping;
import dev.pipelininglab.redis.Route;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.stereotype.Component;

import static dev.pipelininglab.run.RunService.median;
import static dev.pipelininglab.run.RunService.round;
import static dev.pipelininglab.run.RunService.setupBatch;

/**
 * Readies a run's route before the clock starts: warms it up on keys of its own, then
 * measures its round trip.
 */
@Component
class WarmUp {

	/** Through a latency relay every round trip costs the added RTT. */
	static final int WARMUP_ROUND_TRIPS_WITH_RTT = 50;

	/**
	 * With large values the JIT has warmed up long before the item count is reached; this
	 * keeps a warm-up from writing gigabytes.
	 */
	static final long WARMUP_BYTES = 64L << 20;

	private static final int RTT_PINGS = 11;

	/**
	 * Fewer per node: through a relay each costs the added RTT, and a cluster has six.
	 */
	private static final int NODE_RTT_PINGS = 3;

	private final DemoData data;

	private final KeySpace warmupKeys;

	private final WarmUpProperties settings;

	/**
	 * Items each mode and operation has sent in this process, warm-ups included: how warm
	 * their code is.
	 */
	private final Map<Work, AtomicLong> sent = new ConcurrentHashMap<>();

	WarmUp(DemoData data, KeySpace keys, WarmUpProperties settings) {
		this.data = data;
		this.warmupKeys = keys.warmup();
		this.settings = settings;
	}

	/**
	 * An untimed pass of the same work on separate warm-up keys, so JIT and connections
	 * are warm, then removed. Long the first time a mode and operation run in this
	 * process, short once the JIT has seen enough of them.
	 */
	void warmUp(BatchRunner runner, Route route, RunSpec spec, RunObserver observer, String variant, Written written) {
		AtomicLong sent = sent(spec);
		RunSpec warmup = spec.withCount(items(runner, spec, route.addedRtt() != null, sent.get()));
		observer.phase(RunObserver.Phase.WARM_UP, variant, spec.batchSize(), warmup.count());
		KeySpace warmupKeys = runner.keySpace(this.warmupKeys);
		Command command = spec.operation().command();
		String oneKey = command.key(warmupKeys);
		if (oneKey != null) {
			// RPOP's list to pop, or the key a collection write fills.
			written.key(oneKey);
		}
		command.prepareWarmUp(this.data, warmupKeys, warmup.count(), setupBatch(spec), spec.valueSize());
		// As many clients as the run, so the pool holds the connections it needs before
		// the clock starts.
		Pass pass = new Pass(warmup, warmupKeys, route);
		// Round trip by round trip, as the timed pass: a loop's warm-up batch is many
		// round trips, and a cancel is checked between them.
		Clients.Outcome outcome = Clients.run(warmup, runner.perRoundTrip(warmup.batchSize()), Latency.Per.BATCH,
				(from, to, replies) -> runner.run(pass, from, to, replies), RunObserver.cancellationOf(observer));
		outcome.attempted().forEach((range) -> written.items(warmup, warmupKeys, range.from(), range.to()));
		RuntimeException failure = outcome.failure();
		if (failure != null) {
			throw failure;
		}
		sent.addAndGet(warmup.count());
		command.clearWarmUp(this.data, warmupKeys, warmup.count(), setupBatch(spec));
		written.removed(warmupKeys, oneKey);
	}

	/**
	 * The items a warm-up of {@code spec} sends: long while the JIT has seen fewer than
	 * {@code jit-items} of the work ({@code sent} so far), never more than the run.
	 */
	private long items(BatchRunner runner, RunSpec spec, boolean relayed, long sent) {
		int roundTrips = Math.min(this.settings.roundTrips(),
				relayed ? WARMUP_ROUND_TRIPS_WITH_RTT : Integer.MAX_VALUE);
		long items = Math.min(Math.max(this.settings.items(), this.settings.jitItems() - sent),
				(long) runner.perRoundTrip(spec.batchSize()) * roundTrips);
		if (spec.valueSize() > 0) {
			items = Math.min(items, Math.max(spec.batchSize(), WARMUP_BYTES / spec.valueSize()));
		}
		return Math.min(spec.count(), items);
	}

	/**
	 * The most items a warm-up of {@code spec} can send, as for a cold JIT: what the
	 * memory preflight counts for it.
	 */
	RunSpec mostOf(BatchRunner runner, RunSpec spec) {
		return spec.withCount(items(runner, spec, spec.addedRtt() != null, 0));
	}

	AtomicLong sent(RunSpec spec) {
		return this.sent.computeIfAbsent(new Work(spec.mode(), spec.operation()), (key) -> new AtomicLong());
	}

	/** What the JIT compiles separately: one mode sending one operation. */
	private record Work(Mode mode, Operation operation) {
	}

	/**
	 * PING round trips on the run's route, so an added RTT is shown as measured, not as
	 * configured.
	 */
	static Rtt measureRtt(Route route, RunObserver observer) {
		long[] nanos = new long[RTT_PINGS];
		for (int i = 0; i < RTT_PINGS; i++) {
			// Eleven PINGs through a one-second relay are eleven seconds: a cancel does
			// not wait for them.
			if (observer.cancelled()) {
				throw new RunCancelledException();
			}
			long start = System.nanoTime();
			route.template().execute((RedisCallback<@Nullable String>) Ping::once);
			nanos[i] = System.nanoTime() - start;
		}
		return new Rtt(round(median(nanos) / 1e6, 3), round(java.util.Arrays.stream(nanos).min().orElse(0) / 1e6, 3));
	}

	/**
	 * @param medianMillis the median PING: the round trip the answer shows
	 * @param fastestMillis the fastest: what the network takes at least, without the
	 * scheduling delays a busy machine adds to the others ({@link Bottleneck})
	 */
	record Rtt(double medianMillis, double fastestMillis) {
	}

	/** The same for each node on the run's route, with fewer PINGs each. */
	static @Nullable Map<String, Double> measureNodeRtt(Route route) {
		return NodeRoundTrips.measure(route, NODE_RTT_PINGS);
	}

}
