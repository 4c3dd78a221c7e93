package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;

import dev.pipelininglab.redis.ClientSettings;
import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.Connections;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.NodeRoundTrips;
import dev.pipelininglab.redis.Route;
import dev.pipelininglab.redis.Sharing;
import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;

/**
 * The one path every measurement takes, in the order of its phases: pick the route, warm
 * it up ({@link WarmUp}), send the timed passes ({@link TimedPasses}), verify and report
 * ({@link ResultAssembly}). Modes differ only in their {@link BatchRunner}.
 */
@Service
public class RunService {

	/** A sweep's batch size of 1 made its untimed set-up take longer than the runs. */
	static final int SETUP_BATCH = 10_000;

	private final Map<Mode, BatchRunner> runners = new EnumMap<>(Mode.class);

	private final DemoData data;

	private final KeySpace keys;

	private final Topology topology;

	private final Connections connections;

	private final ClusterLayout layout;

	private final ClientSettings settings;

	private final Safeguards safeguards;

	private final WarmUp warmUp;

	private final TimedPasses timedPasses;

	private final ResultAssembly assembly;

	private final ServerCounters counters;

	private final SteadyCompare steady;

	RunService(List<BatchRunner> runners, DemoData data, KeySpace keys, Topology topology, Connections connections,
			ClusterLayout layout, ClientSettings settings, Safeguards safeguards, WarmUp warmUp,
			TimedPasses timedPasses, ResultAssembly assembly, ServerCounters counters, SteadyCompare steady) {
		this.counters = counters;
		this.steady = steady;
		this.safeguards = safeguards;
		runners.forEach((runner) -> this.runners.put(runner.mode(), runner));
		this.data = data;
		this.keys = keys;
		this.topology = topology;
		this.connections = connections;
		this.layout = layout;
		this.settings = settings;
		this.warmUp = warmUp;
		this.timedPasses = timedPasses;
		this.assembly = assembly;
	}

	/** Null when the spec can run here. */
	public @Nullable String unsupported(RunSpec spec) {
		String connector = connectorUnsupported(spec);
		if (connector != null) {
			return connector;
		}
		String mode = runnerOf(spec).unsupported(spec, this.topology);
		return (mode != null) ? mode : nothingRuns(spec);
	}

	private void requireSupported(RunSpec spec) {
		String reason = unsupported(spec);
		if (reason != null) {
			// The parameter named is the first check's that refused it.
			String parameter = (connectorUnsupported(spec) != null) ? "connector"
					: (runnerOf(spec).unsupported(spec, this.topology) != null) ? "mode" : "rate";
			throw new UnsupportedRunException(spec, parameter, reason);
		}
	}

	/** A paced run whose first round trip falls due only after its time limit. */
	private @Nullable String nothingRuns(RunSpec spec) {
		Workload workload = spec.workload();
		if (workload.rate() == 0 || workload.duration() == null) {
			return null;
		}
		long firstRoundTrip = Math.min(runnerOf(spec).perRoundTrip(spec.batchSize()),
				Math.max(1, spec.count() / spec.clients()));
		double dueSeconds = (double) firstRoundTrip * spec.clients() / workload.rate();
		double limit = workload.duration().toNanos() / 1e9;
		if (dueSeconds < limit) {
			return null;
		}
		return String.format(Locale.ROOT,
				"at rate=%d its first round trip of %d commands falls due after %.3f s, past duration=%s s, so it"
						+ " would send nothing; ask for a higher rate, a longer duration or a smaller batchSize",
				workload.rate(), firstRoundTrip * spec.clients(), dueSeconds, limit);
	}

	private @Nullable String connectorUnsupported(RunSpec spec) {
		if (spec.senders().connector() != Connector.JEDIS) {
			return null;
		}
		String nowhere = new Variant(spec.mode(), null, Connector.JEDIS).runsNowhere();
		if (nowhere != null) {
			return nowhere;
		}
		if (spec.operation() == Operation.PING && (spec.mode() == Mode.PIPELINED || spec.mode() == Mode.TRANSACTION
				|| spec.mode() == Mode.TRANSACTION_HASHTAG)) {
			// JedisPingTests shows it: the run would fail at its first batch.
			return "Spring Data Redis's Jedis connection refuses PING inside a pipeline or transaction (\"Operation"
					+ " not supported by Jedis in pipelining/transaction mode\"); jedis-loop and jedis-script send"
					+ " PING, and Lettuce pipelines it";
		}
		if (spec.mode() == Mode.PIPELINED && this.topology.kind() == Topology.Kind.CLUSTER) {
			// JedisClusterConnectorTests shows Spring Data Redis 4.1 refusing it.
			return "Spring Data Redis's Jedis cluster connection does not pipeline: executePipelined fails with"
					+ " \"Pipeline is not supported for JedisClusterConnection\". The Jedis loop works on a cluster,"
					+ " and Lettuce pipelines there";
		}
		return null;
	}

	/** No preparation: RPOP pops what the list holds. */
	public RunResult run(RunSpec spec, RunObserver observer) {
		return run(spec, observer, true);
	}

	/**
	 * A fleet member's share: neither read back nor given its expiry unless it stops, as
	 * the leader does both for every share after the fleet's window
	 * ({@link FleetShares}).
	 */
	public RunResult runShare(RunSpec share, RunObserver observer) {
		return run(share, observer, false);
	}

	private RunResult run(RunSpec spec, RunObserver observer, boolean readBack) {
		requireSupported(spec);
		List<RunSpec> specs = List.of(spec);
		ServerCounters.Snapshot before = this.safeguards.preflight(spec, specs, false, this::runnerOf, observer);
		observer.started(spec.repeat() * spec.batchesPerPass());
		Written written = new Written();
		return this.safeguards.leavingExpiry(spec, written,
				() -> written.keptFor(measure(spec, false, readBack, observer, before, written, specs), readBack));
	}

	/** A fleet's: what all its members store together must fit. */
	public void preflight(RunSpec whole, RunObserver observer) {
		requireSupported(whole);
		this.safeguards.preflight(whole, List.of(whole), false, this::runnerOf, observer);
	}

	/**
	 * Every key a run of {@code specs} may write, its warm-up's too (several instances
	 * warm up on the same keys), for its record before its first key; {@code prepared}: a
	 * comparison or sweep, which prepares the keys it reads.
	 */
	public List<KeySpace.Range> reach(List<RunSpec> specs, boolean prepared) {
		return specs.stream().flatMap((spec) -> {
			BatchRunner runner = runnerOf(spec);
			return Stream.concat(Written.reach(spec, runner.keySpace(this.keys), prepared).stream(),
					Written.reach(this.warmUp.mostOf(runner, spec), runner.keySpace(this.keys.warmup()), false)
						.stream());
		}).distinct().toList();
	}

	/** For a run whose instance died: see {@link Safeguards#expireAbandoned}. */
	public void expireAbandoned(List<KeySpace.Range> ranges, boolean keepExpiries) {
		this.safeguards.expireAbandoned(ranges, keepExpiries);
	}

	BatchRunner runnerOf(RunSpec spec) {
		return Objects.requireNonNull(this.runners.get(spec.mode()), () -> "no runner for " + spec.mode());
	}

	/**
	 * Every variant on the same keys and values, each from the same starting state; those
	 * the topology cannot run are listed as skipped, with the reason.
	 */
	public Comparison compare(RunSpec base, List<Variant> variants, RunObserver observer) {
		return compare(base, variants, false, observer);
	}

	/**
	 * {@code steady}: the request set neither {@code repeat} nor {@code duration}, so the
	 * lab picks passes that make a steady answer ({@link SteadyCompare}); the advised
	 * pipeline's other batch sizes run in the same preflight, not as rows.
	 */
	public Comparison compare(RunSpec asked, List<Variant> variants, boolean steady, RunObserver observer) {
		SteadyCompare.Planned plan = this.steady.plan(asked, variants, steady, this::unsupported);
		return plan.answer(asked, measureAll(plan.base(), plan.all(), observer), this.topology.kind().toString(),
				this.settings.inEffect());
	}

	/** Every spec a comparison runs, for its record's key ranges before it starts. */
	public List<RunSpec> compared(RunSpec asked, List<Variant> variants, boolean steady) {
		return this.steady.plan(asked, variants, steady, this::unsupported).all();
	}

	/** The Redis docs' throughput-against-length figure. */
	public Sweep sweep(RunSpec base, List<Integer> batchSizes, RunObserver observer) {
		RunSpec pipelined = base.with(new Variant(Mode.PIPELINED, null, base.senders().connector()));
		requireSupported(pipelined);
		List<RunSpec> runs = batchSizes.stream().map(pipelined::withBatchSize).toList();
		runs.forEach(this::requireSupported);
		List<RunResult> results = measureAll(base, runs, observer).stream()
			.map((result) -> result.partOfMany(null))
			.toList();
		return new Sweep(base.operation(), base.count(), this.topology.kind().toString(), results,
				Sweep.summary(results), this.settings.inEffect());
	}

	private List<RunResult> measureAll(RunSpec base, List<RunSpec> specs, RunObserver observer) {
		// Before the first key is written: what the servers evict then is the run's
		// doing.
		ServerCounters.Snapshot before = this.safeguards.preflight(base, specs, true, this::runnerOf, observer);
		observer.started(specs.stream().mapToLong((spec) -> spec.repeat() * spec.batchesPerPass()).sum());
		Written written = new Written();
		return this.safeguards.leavingExpiry(base, written,
				() -> LoopCeiling.oneRoundTrip(prepareAndMeasure(base, specs, observer, before, written)));
	}

	private List<RunResult> prepareAndMeasure(RunSpec base, List<RunSpec> specs, RunObserver observer,
			ServerCounters.@Nullable Snapshot before, Written written) {
		if (base.operation().needsPreparedData()) {
			try {
				// The hash-tag variant reads keys of its own.
				Map<String, KeySpace> layouts = new LinkedHashMap<>();
				specs.forEach((spec) -> {
					KeySpace keys = runnerOf(spec).keySpace(this.keys);
					layouts.putIfAbsent(keys.keyPattern(), keys);
				});
				for (KeySpace keys : layouts.values()) {
					observer.phase(RunObserver.Phase.PREPARING, "", base.batchSize(), base.count());
					// A walk reads only its own keys: a pass by time has more items than
					// keys.
					this.data.writeKeys(keys, base.workload().distinctKeys(base.count()), setupBatch(base),
							base.valueSize(), observer, written);
				}
			}
			catch (DataAccessException ex) {
				throw new RunFailedException(base, 0, new Tally(0), null, keyOf(base.operation()), ex);
			}
		}
		// Round by round: every variant's first pass, then every variant's second, so a
		// machine that drifts (a neighbour, the JIT, a CPU's clock) weighs on all alike.
		// Each variant reads back its keys right after its last pass, before the next
		// variant's pass clears them.
		List<Measuring> measuring = new ArrayList<>();
		RunResult[] results = new RunResult[specs.size()];
		try {
			int rounds = specs.stream().mapToInt(RunSpec::repeat).max().orElse(0);
			for (int round = 0; round < rounds; round++) {
				for (int i = 0; i < specs.size(); i++) {
					if (round == 0) {
						// Evictions count from the variant's first pass on.
						ServerCounters.Snapshot since = (i == 0 || before == null) ? before : this.counters.snapshot();
						measuring.add(new Measuring(specs.get(i), true, observer, since, written, specs));
					}
					Measuring variant = measuring.get(i);
					if (!variant.done()) {
						variant.pass();
						if (variant.done()) {
							results[i] = variant.result(true, observer);
						}
					}
				}
			}
		}
		finally {
			measuring.forEach(Measuring::close);
		}
		return List.of(results);
	}

	/** {@code since}: null to count from the first timed pass. */
	private RunResult measure(RunSpec spec, boolean prepare, boolean readBack, RunObserver observer,
			ServerCounters.@Nullable Snapshot since, Written written, List<RunSpec> all) {
		try (Measuring measuring = new Measuring(spec, prepare, observer, since, written, all)) {
			while (!measuring.done()) {
				measuring.pass();
			}
			return measuring.result(readBack, observer);
		}
	}

	/**
	 * One variant from its warm-up to its answer, on a route it holds throughout, its
	 * timed passes sent one at a time.
	 */
	private final class Measuring implements AutoCloseable {

		private final RunSpec spec;

		private final BatchRunner runner;

		private final KeySpace keys;

		private final Written written;

		private final TimedPasses.Progress progress;

		private final Connections.Lease lease;

		private final double pingMillis;

		private final @Nullable Map<String, Double> nodeRttMillis;

		private final ClusterLayout.@Nullable Spread spread;

		private final BatchRunner.@Nullable ClusterEffect effect;

		private final TimedPasses.Sending sending;

		private final String variant;

		/** Warms the route up and measures its round trip. */
		Measuring(RunSpec spec, boolean prepare, RunObserver observer, ServerCounters.@Nullable Snapshot since,
				Written written, List<RunSpec> all) {
			this.spec = spec;
			this.runner = runnerOf(spec);
			this.keys = this.runner.keySpace(RunService.this.keys);
			this.written = written;
			this.progress = new TimedPasses.Progress(spec.sample());
			this.lease = lease(spec);
			try {
				Route route = this.lease.route();
				this.variant = Variant.of(spec, route.flushPolicy()).label();
				RunService.this.warmUp.warmUp(this.runner, route, spec, observer, this.variant, written);
				this.pingMillis = LoopCeiling.timesItsRoundTrips(all, RunService.this::runnerOf) ? 0
						: WarmUp.measureRtt(route, observer);
				this.nodeRttMillis = NodeRoundTrips.measure(route, WarmUp.RTT_PINGS);
				this.spread = spread(spec, this.keys);
				this.effect = (this.spread != null && route.connector() == Connector.LETTUCE)
						? this.runner.onCluster(spec, this.spread) : null;
				this.sending = RunService.this.timedPasses.start(spec, this.runner, this.keys, route, this.variant,
						this.effect, prepare, observer, since, this.progress, written);
			}
			catch (RuntimeException ex) {
				this.lease.close();
				throw (ex instanceof DataAccessException access)
						? failed(spec, this.keys, this.progress, access, written) : ex;
			}
		}

		boolean done() {
			return this.sending.done();
		}

		void pass() {
			try {
				this.sending.next();
			}
			catch (DataAccessException ex) {
				throw failed(this.spec, this.keys, this.progress, ex, this.written);
			}
		}

		/** After the last pass, with its keys read back when {@code readBack}. */
		RunResult result(boolean readBack, RunObserver observer) {
			try {
				if (readBack && this.spec.operation().command() instanceof Command.Verified) {
					observer.phase(RunObserver.Phase.VERIFYING, this.variant, this.spec.batchSize(), this.spec.count());
				}
				return RunService.this.assembly.result(this.spec, this.runner, this.keys, this.lease.route(),
						this.spread, this.effect, this.sending.passes(), this.pingMillis, this.nodeRttMillis,
						readBack ? observer : null, this.written);
			}
			catch (DataAccessException ex) {
				throw failed(this.spec, this.keys, this.progress, ex, this.written);
			}
		}

		@Override
		public void close() {
			this.lease.close();
		}

	}

	/** Pipelines always take a dedicated connection from the pool. */
	private Connections.Lease lease(RunSpec spec) {
		RunSpec.Senders senders = spec.senders();
		Sharing sharing = switch (spec.mode()) {
			case PIPELINED, PIPELINED_BY_NODE, ASYNC, TRANSACTION, PIPELINED_TRANSACTION, TRANSACTION_HASHTAG ->
				Sharing.POOLED;
			default -> senders.sharing();
		};
		return this.connections.lease(senders.connector(), sharing, spec.flushPolicy(), spec.writes(), spec.addedRtt());
	}

	/**
	 * When Redis refused commands but still answers, the keys a SET run's failing pass
	 * sent are read back, so the report says what it left (none when it failed before its
	 * pass, in a warm-up or preparation: the keys hold what came before it); after a lost
	 * connection they are not. {@code keys}: the runner's, a hash tag's for the hash-tag
	 * modes.
	 */
	private RunFailedException failed(RunSpec spec, KeySpace keys, TimedPasses.Progress progress,
			DataAccessException ex, Written written) {
		long batchesDone = progress.batchesDone;
		Tally tally = progress.tally;
		boolean refused = tally.rejectedCount() > 0;
		if (!refused && PipelineFailures.isErrorReply(ex)) {
			// The other paths stop at the first refusal they see, which is counted here.
			tally.rejected();
			refused = true;
		}
		Long verified = null;
		Command command = spec.operation().command().forRun(spec.workload());
		if (refused && command instanceof Command.Verified && command.key(keys) == null
				&& spec.workload().keyWalk() == null && !progress.attempted.isEmpty()) {
			try {
				verified = this.data
					.verify(command, keys, progress.attempted, setupBatch(spec), spec.valueSize(), new Tally(0),
							RunObserver.NONE, (spec.ttl() == null) ? written : null)
					.verified();
			}
			catch (DataAccessException unanswered) {
				// Redis stopped answering: the report goes out without the read-back.
			}
		}
		return new RunFailedException(spec, batchesDone, tally, verified, keyOf(spec.operation()), ex);
	}

	/** Null off a cluster and for PING. */
	private ClusterLayout.@Nullable Spread spread(RunSpec spec, KeySpace keys) {
		if (!spec.operation().command().keyed()) {
			return null;
		}
		String key = spec.operation().key(keys);
		if (key != null) {
			return this.layout.ofKey(key, spec.count(), spec.batchSize());
		}
		KeyWalk walk = spec.workload().keyWalk();
		if (walk != null) {
			return this.layout.ofKeys(keys, spec.count(), spec.batchSize(), walk::index, walk.toString());
		}
		long first = spec.workload().first();
		return (first > 0) ? this.layout.ofKeys(keys, spec.count(), spec.batchSize(), (item) -> first + item,
				"share from " + first) : this.layout.ofKeys(keys, spec.count(), spec.batchSize());
	}

	/** Never more values than the run's byte budget lets one batch hold. */
	static int setupBatch(RunSpec spec) {
		return (spec.valueSize() > 0) ? Math.min(SETUP_BATCH, spec.workload().batchSizeLimit()) : SETUP_BATCH;
	}

	private String keyOf(Operation operation) {
		String key = operation.key(this.keys);
		return (key != null) ? key : operation.command().keyed() ? this.keys.keyPattern() : "(no key)";
	}

	static double median(DoubleStream values) {
		double[] sorted = values.sorted().toArray();
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	public static double round(double value, int decimals) {
		double scale = Math.pow(10, decimals);
		return Math.round(value * scale) / scale;
	}

}
