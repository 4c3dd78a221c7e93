package dev.pipelininglab.run;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Reconnects;
import dev.pipelininglab.redis.Route;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.stereotype.Component;

import static dev.pipelininglab.run.RunService.median;
import static dev.pipelininglab.run.RunService.round;
import static dev.pipelininglab.run.RunService.setupBatch;

/** Readies a run's route before the clock: a warm-up, then its round trip. */
@Component
class WarmUp {

	/** Through a latency relay every round trip costs the added RTT. */
	static final int WARMUP_ROUND_TRIPS_WITH_RTT = 50;

	/** With large values the JIT is warm long before the item count. */
	static final long WARMUP_BYTES = 64L << 20;

	/**
	 * Only for runs that time no single round trip themselves; through a relay each costs
	 * the added RTT, and a cluster has six nodes.
	 */
	static final int RTT_PINGS = 3;

	private final RunKeys data;

	private final KeySpace warmupKeys;

	private final WarmUpProperties settings;

	/** Items each mode and operation sent in this process: how warm its code is. */
	private final Map<Work, AtomicLong> sent = new ConcurrentHashMap<>();

	private final Reconnects reconnects;

	WarmUp(RunKeys data, KeySpace keys, WarmUpProperties settings, Reconnects reconnects) {
		this.data = data;
		this.reconnects = reconnects;
		this.warmupKeys = keys.warmup();
		this.settings = settings;
	}

	/** Long the first time a mode and operation run in this process. */
	void warmUp(BatchRunner runner, Route route, RunSpec spec, RunObserver observer, String variant, Written written) {
		AtomicLong sent = sent(spec);
		RunSpec warmup = byTime(spec, spec.withCount(items(runner, spec, route.addedRtt() != null, sent.get())));
		observer.phase(RunObserver.Phase.WARM_UP, variant, spec.batchSize(), warmup.count());
		KeySpace warmupKeys = runner.keySpace(this.warmupKeys);
		Command command = spec.operation().command();
		String oneKey = command.key(warmupKeys);
		written.key(oneKey);
		command.prepareWarmUp(this.data, warmupKeys, warmup.count(), setupBatch(spec), spec.valueSize());
		// As many clients as the run, so the pool holds its connections before the clock
		// starts; round trip by round trip, so a cancel is checked between them. A
		// connection still being made is waited for here, before the clock.
		Pass pass = new Pass(warmup, warmupKeys, route);
		ClientThreads.Outcome warmed = this.reconnects.awaiting(() -> {
			ClientThreads.Outcome outcome = ClientThreads.run(warmup, runner.perRoundTrip(warmup.batchSize()),
					Latency.Per.BATCH, (from, to, replies) -> runner.run(pass, from, to, replies),
					RunObserver.cancellationOf(observer));
			outcome.attempted().forEach((range) -> written.items(warmup, warmupKeys, range.from(), range.to()));
			RuntimeException failure = outcome.failure();
			if (failure != null) {
				throw failure;
			}
			return outcome;
		});
		sent.addAndGet(warmed.sent());
		long reached = warmed.attempted().stream().mapToLong(ClientThreads.Reach::to).max().orElse(0);
		command.clearWarmUp(this.data, warmupKeys, reached, setupBatch(spec));
		written.removed(warmupKeys, oneKey);
	}

	/**
	 * A pass by time warms up for at most one pass: on a cold JIT the first comparison's
	 * 300,000-item warm-ups took seconds per variant (16.7 s to the first answer against
	 * 8-9 s after), and its passes, interleaved and shown by their median, finish what
	 * the warm-up began.
	 */
	private static RunSpec byTime(RunSpec spec, RunSpec warmup) {
		Duration pass = spec.workload().duration();
		if (pass == null) {
			return warmup;
		}
		return warmup.withPasses(1, warmup.count(), warmup.workload().withDuration(pass));
	}

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

	/** As for a cold JIT: what the memory preflight counts. */
	RunSpec mostOf(BatchRunner runner, RunSpec spec) {
		return spec.withCount(items(runner, spec, spec.addedRtt() != null, 0));
	}

	AtomicLong sent(RunSpec spec) {
		return this.sent.computeIfAbsent(new Work(spec.mode(), spec.operation()), (key) -> new AtomicLong());
	}

	/** What the JIT compiles separately: one mode sending one operation. */
	private record Work(Mode mode, Operation operation) {
	}

	/** The median; an added RTT is shown as measured, not as configured. */
	static double measureRtt(Route route, RunObserver observer) {
		long[] nanos = new long[RTT_PINGS];
		for (int i = 0; i < RTT_PINGS; i++) {
			// PINGs through a one-second relay take seconds.
			RunCancelledException.throwIf(observer);
			long start = System.nanoTime();
			route.template().execute((RedisCallback<@Nullable String>) PingCommand::once);
			nanos[i] = System.nanoTime() - start;
		}
		return round(median(Arrays.stream(nanos).asDoubleStream()) / 1e6, 3);
	}

}
