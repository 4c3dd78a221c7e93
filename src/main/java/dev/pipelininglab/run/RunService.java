package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.Connections;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Ping;
import dev.pipelininglab.redis.Route;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.stereotype.Service;

/**
 * The one path every measurement takes: pick the route, warm it up, (prepare,) send the
 * batches while the clock runs, stop the clock, verify, report. Modes differ only in
 * their {@link BatchRunner}.
 */
@Service
public class RunService {

	/**
	 * Enough items to warm the run's connection and whatever the JIT has not compiled
	 * yet.
	 */
	static final int WARMUP_ITEMS = 10_000;

	/**
	 * Items a mode must have sent in this process before its code is fully compiled: on 2
	 * cores a fresh app's first million pipelined SETs ran at about 60% of its later
	 * speed after a 10,000-item warm-up, and at full speed after 300,000. Until a mode
	 * and operation have sent that many, their warm-up makes up the difference.
	 */
	static final int JIT_WARMUP_ITEMS = 300_000;

	/**
	 * The warm-up is bounded by round trips too, so loops and short batches warm up
	 * quickly.
	 */
	static final int WARMUP_ROUND_TRIPS = 1_000;

	/** Through a latency relay every round trip costs the added RTT. */
	static final int WARMUP_ROUND_TRIPS_WITH_RTT = 50;

	private static final int RTT_PINGS = 11;

	/**
	 * Set-up and read-back go in batches this long whatever batch size is measured: a
	 * sweep's batch size of 1 made its untimed set-up take longer than the runs.
	 */
	static final int SETUP_BATCH = 10_000;

	private final Map<Mode, BatchRunner> runners = new EnumMap<>(Mode.class);

	private final DemoData data;

	/**
	 * Items each mode and operation has sent in this process, warm-ups included: how warm
	 * their code is.
	 */
	private final Map<Work, AtomicLong> sent = new ConcurrentHashMap<>();

	private final KeySpace keys;

	private final KeySpace warmupKeys;

	private final Topology topology;

	private final Connections connections;

	private final ClusterLayout layout;

	RunService(List<BatchRunner> runners, DemoData data, KeySpace keys, Topology topology, Connections connections,
			ClusterLayout layout) {
		runners.forEach((runner) -> this.runners.put(runner.mode(), runner));
		this.data = data;
		this.keys = keys;
		this.warmupKeys = keys.warmup();
		this.topology = topology;
		this.connections = connections;
		this.layout = layout;
	}

	/**
	 * @return null when the spec can run here, else why not
	 */
	public @Nullable String unsupported(RunSpec spec) {
		return this.runners.get(spec.mode()).unsupported(spec, this.topology);
	}

	public RunResult run(RunSpec spec) {
		return run(spec, RunObserver.NONE);
	}

	/**
	 * A single run on whatever state Redis is in: no preparation, so RPOP pops what the
	 * list holds.
	 */
	public RunResult run(RunSpec spec, RunObserver observer) {
		requireSupported(spec);
		observer.started(spec.repeat() * spec.batches());
		return measure(spec, false, observer);
	}

	/**
	 * Runs every variant on the same keys and values, each from the same starting state
	 * (SET: keys absent; GET: keys present; RPOP: list holding {@code count} elements).
	 * Variants the topology cannot run are listed as skipped, with the reason.
	 */
	public Comparison compare(RunSpec base, List<Variant> variants, RunObserver observer) {
		List<RunSpec> runnable = new ArrayList<>();
		List<Comparison.Skipped> skipped = new ArrayList<>();
		for (Variant variant : variants) {
			RunSpec spec = base.with(variant);
			String reason = unsupported(spec);
			if (reason != null) {
				skipped.add(new Comparison.Skipped(variant.label(), reason));
			}
			else {
				runnable.add(spec);
			}
		}
		List<RunResult> results = measureAll(base, runnable, observer);
		RunResult reference = results.stream()
			.filter((result) -> result.mode() == Mode.LOOP)
			.findFirst()
			.orElse(results.isEmpty() ? null : results.get(0));
		return new Comparison(base.operation(), base.count(), this.topology.kind().toString(),
				results.stream()
					.map((result) -> result.withSpeedup(round(reference.elapsedMillis() / result.elapsedMillis(), 2)))
					.toList(),
				List.copyOf(skipped));
	}

	/**
	 * Pipelined runs of the same work at each batch size: the Redis docs'
	 * throughput-against-length figure.
	 */
	public Sweep sweep(RunSpec base, List<Integer> batchSizes, RunObserver observer) {
		RunSpec pipelined = base.with(Variant.of(Mode.PIPELINED));
		List<RunSpec> runs = batchSizes.stream().map(pipelined::withBatchSize).toList();
		return new Sweep(base.operation(), base.count(), this.topology.kind().toString(),
				measureAll(base, runs, observer));
	}

	private List<RunResult> measureAll(RunSpec base, List<RunSpec> specs, RunObserver observer) {
		observer.started(specs.stream().mapToLong((spec) -> spec.repeat() * spec.batches()).sum());
		if (base.operation() == Operation.GET) {
			try {
				// Once per key layout the variants use (the hash-tag variant reads keys
				// of its own).
				Map<String, KeySpace> layouts = new java.util.LinkedHashMap<>();
				specs.forEach((spec) -> {
					KeySpace keys = this.runners.get(spec.mode()).keySpace(this.keys);
					layouts.putIfAbsent(keys.keyPattern(), keys);
				});
				for (KeySpace keys : layouts.values()) {
					observer.phase(RunObserver.Phase.PREPARING, "", base.batchSize(), base.count());
					this.data.writeKeys(keys, base.count(), SETUP_BATCH, observer);
				}
			}
			catch (DataAccessException ex) {
				throw new RunFailedException(base, 0, 0, keyOf(base.operation()), ex);
			}
		}
		List<RunResult> results = new ArrayList<>();
		for (RunSpec spec : specs) {
			results.add(measure(spec, true, observer));
		}
		return results;
	}

	private RunResult measure(RunSpec spec, boolean prepare, RunObserver observer) {
		BatchRunner runner = this.runners.get(spec.mode());
		Route route = this.connections.route(spec.flushPolicy(), spec.addedRtt());
		KeySpace keys = runner.keySpace(this.keys);
		Pass pass = new Pass(spec, keys, route);
		Tally tally = new Tally(spec.sample());
		long batchesDone = 0;
		try {
			String variant = variantLabel(spec, route);
			warmUp(runner, route, spec, observer, variant);
			double rttMillis = measureRtt(route);
			long[] passNanos = new long[spec.repeat()];
			for (int repeat = 0; repeat < spec.repeat(); repeat++) {
				if (prepare) {
					prepare(spec, keys, observer, variant);
				}
				tally = new Tally(spec.sample());
				batchesDone = 0;
				observer.phase(RunObserver.Phase.TIMING, variant, spec.batchSize(), spec.count());
				long start = System.nanoTime();
				for (long from = 0; from < spec.count(); from += spec.batchSize()) {
					if (observer.cancelled()) {
						throw new RunCancelledException();
					}
					long to = Math.min(spec.count(), from + spec.batchSize());
					runner.run(pass, from, to, tally);
					batchesDone++;
					observer.batchDone();
					observer.commandsDone(to - from);
				}
				passNanos[repeat] = System.nanoTime() - start;
				sent(spec).addAndGet(spec.count());
			}
			if (spec.operation() == Operation.SET) {
				observer.phase(RunObserver.Phase.VERIFYING, variant, spec.batchSize(), spec.count());
			}
			return result(spec, keys, runner, route, tally, passNanos, rttMillis, observer);
		}
		catch (DataAccessException ex) {
			throw failed(spec, batchesDone, tally, ex);
		}
	}

	/**
	 * Keeps what Redis acknowledged before and beside the failure. When Redis refused
	 * commands but still answers, the keys of a SET run are read back too, so the report
	 * says what the run really left behind; after a lost connection or a timeout they are
	 * not, as that would only wait on the same dead or stalled server.
	 */
	private RunFailedException failed(RunSpec spec, long batchesDone, Tally tally, DataAccessException ex) {
		boolean refused = tally.rejectedCount() > 0;
		if (!refused && PipelineFailures.isErrorReply(ex)) {
			// The other paths stop at the first refusal they see, which is counted here.
			tally.rejected();
			refused = true;
		}
		Long verified = null;
		if (refused && spec.operation() == Operation.SET) {
			// Only the keys the run got to: those of the batches done and of the one that
			// failed.
			long reached = Math.min(spec.count(), (batchesDone + 1) * spec.batchSize());
			try {
				verified = this.data.verifyKeys(this.keys, reached, SETUP_BATCH, new Tally(0), RunObserver.NONE);
			}
			catch (DataAccessException unanswered) {
				// Redis stopped answering meanwhile; the report goes out without the
				// read-back.
			}
		}
		return new RunFailedException(spec, batchesDone, tally, verified, keyOf(spec.operation()), ex);
	}

	/**
	 * An untimed pass of the same work on separate warm-up keys, so JIT and connections
	 * are warm, then removed. Long the first time a mode and operation run in this
	 * process, short once the JIT has seen enough of them.
	 */
	private void warmUp(BatchRunner runner, Route route, RunSpec spec, RunObserver observer, String variant) {
		AtomicLong sent = sent(spec);
		int roundTrips = (route.addedRtt() != null) ? WARMUP_ROUND_TRIPS_WITH_RTT : WARMUP_ROUND_TRIPS;
		long items = Math.min(Math.max(WARMUP_ITEMS, JIT_WARMUP_ITEMS - sent.get()),
				(long) runner.perRoundTrip(spec.batchSize()) * roundTrips);
		RunSpec warmup = spec.withCount(Math.min(spec.count(), items));
		observer.phase(RunObserver.Phase.WARM_UP, variant, spec.batchSize(), warmup.count());
		KeySpace warmupKeys = runner.keySpace(this.warmupKeys);
		if (spec.operation() == Operation.RPOP) {
			this.data.refillList(warmupKeys, warmup.count(), SETUP_BATCH, RunObserver.NONE);
		}
		runner.runAll(new Pass(warmup, warmupKeys, route), new Tally(0));
		sent.addAndGet(warmup.count());
		switch (spec.operation()) {
			case SET -> this.data.deleteKeys(warmupKeys, warmup.count(), SETUP_BATCH, RunObserver.NONE);
			case RPOP, RPUSH -> this.data.deleteList(warmupKeys);
			default -> {
			}
		}
	}

	private AtomicLong sent(RunSpec spec) {
		return this.sent.computeIfAbsent(new Work(spec.mode(), spec.operation()), (key) -> new AtomicLong());
	}

	/** What the JIT compiles separately: one mode sending one operation. */
	private record Work(Mode mode, Operation operation) {
	}

	private void prepare(RunSpec spec, KeySpace keys, RunObserver observer, String variant) {
		if (spec.operation() == Operation.SET || spec.operation() == Operation.RPOP) {
			observer.phase(RunObserver.Phase.PREPARING, variant, spec.batchSize(), spec.count());
		}
		switch (spec.operation()) {
			case SET -> this.data.deleteKeys(keys, spec.count(), SETUP_BATCH, observer);
			case RPOP -> this.data.refillList(keys, spec.count(), SETUP_BATCH, observer);
			default -> {
			}
		}
	}

	/**
	 * Median PING round trip on the run's route, so an added RTT is shown as measured,
	 * not as configured.
	 */
	private static double measureRtt(Route route) {
		long[] nanos = new long[RTT_PINGS];
		for (int i = 0; i < RTT_PINGS; i++) {
			long start = System.nanoTime();
			route.template().execute((RedisCallback<String>) Ping::once);
			nanos[i] = System.nanoTime() - start;
		}
		return round(median(nanos) / 1e6, 3);
	}

	private void requireSupported(RunSpec spec) {
		String reason = unsupported(spec);
		if (reason != null) {
			throw new UnsupportedRunException(spec, reason);
		}
	}

	private RunResult result(RunSpec spec, KeySpace keys, BatchRunner runner, Route route, Tally tally,
			long[] passNanos, double rttMillis, RunObserver observer) {
		long count = spec.count();
		int batchSize = (int) Math.min(runner.perRoundTrip(spec.batchSize()), count);
		long batches = (count + batchSize - 1) / batchSize;
		double elapsedNanos = median(passNanos);
		List<Double> repeatMillis = (passNanos.length > 1)
				? java.util.Arrays.stream(passNanos).mapToObj((nanos) -> round(nanos / 1e6, 3)).toList() : null;
		Long written = null;
		Long verified = null;
		Long hits = null;
		Long misses = null;
		Long popped = null;
		Long empty = null;
		Long pongs = null;
		List<String> sample = tally.sample();
		switch (spec.operation()) {
			case SET -> {
				written = tally.values();
				Tally readBack = new Tally(spec.sample());
				verified = this.data.verifyKeys(keys, count, SETUP_BATCH, readBack, observer);
				sample = readBack.sample();
			}
			case RPUSH -> written = tally.values();
			case GET -> {
				hits = tally.values();
				misses = tally.nils();
			}
			case RPOP -> {
				popped = tally.values();
				empty = tally.nils();
			}
			case PING -> pongs = tally.values();
		}
		Double addedRttMillis = (route.addedRtt() != null) ? round(route.addedRtt().toNanos() / 1e6, 3) : null;
		String variant = variantLabel(spec, route);
		ClusterLayout.Spread spread = switch (spec.operation()) {
			case SET, GET -> this.layout.ofKeys(keys, count, spec.batchSize());
			case RPOP, RPUSH -> this.layout.ofKey(keys.listKey(), count, spec.batchSize());
			case PING -> null;
		};
		BatchRunner.ClusterEffect effect = (spread != null) ? runner.onCluster(spec, spread) : null;
		String writes = (spec.mode() == Mode.PIPELINED || spec.mode() == Mode.ASYNC) ? route.writes().label() : null;
		return new RunResult(spec.operation(), spec.mode(), variant, route.flushPolicy().toString(), writes, count,
				batchSize, batches, this.topology.kind().toString(), round(elapsedNanos / 1e6, 3),
				round(count / (elapsedNanos / 1e9), 1), spec.repeat(), repeatMillis, addedRttMillis, rttMillis, written,
				verified, hits, misses, popped, empty, pongs, (spread != null) ? spread.keysPerNode() : null,
				(spread != null) ? spread.slotsTouched() : null, (effect != null) ? effect.commands() : null,
				(effect != null) ? effect.note() : null, sample, null);
	}

	private static String variantLabel(RunSpec spec, Route route) {
		return new Variant(spec.mode(), (spec.mode() == Mode.PIPELINED) ? route.flushPolicy() : null).label();
	}

	private String keyOf(Operation operation) {
		return switch (operation) {
			case SET, GET -> this.keys.keyPattern();
			case RPOP, RPUSH -> this.keys.listKey();
			case PING -> "(no key)";
		};
	}

	private static double median(long[] values) {
		long[] sorted = values.clone();
		java.util.Arrays.sort(sorted);
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
	}

	private static double round(double value, int decimals) {
		double scale = Math.pow(10, decimals);
		return Math.round(value * scale) / scale;
	}

}
