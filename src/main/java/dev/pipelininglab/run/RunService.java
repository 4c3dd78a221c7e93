package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.pipelininglab.redis.ClientSettings;
import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.Connections;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.NodeRoundTrips;
import dev.pipelininglab.redis.Ping;
import dev.pipelininglab.redis.RedisDiagnosis;
import dev.pipelininglab.redis.Route;
import dev.pipelininglab.redis.ServerConnections;
import dev.pipelininglab.redis.Sharing;
import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.redis.ServerStats;
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

	private final ServerConnections serverConnections;

	private final RedisDiagnosis diagnosis;

	private final ServerCounters server;

	private final ClientSettings settings;

	private final Safeguards safeguards;

	RunService(List<BatchRunner> runners, DemoData data, KeySpace keys, Topology topology, Connections connections,
			ClusterLayout layout, ServerConnections serverConnections, RedisDiagnosis diagnosis, ServerCounters server,
			ClientSettings settings, Safeguards safeguards) {
		this.safeguards = safeguards;
		this.serverConnections = serverConnections;
		runners.forEach((runner) -> this.runners.put(runner.mode(), runner));
		this.data = data;
		this.keys = keys;
		this.warmupKeys = keys.warmup();
		this.topology = topology;
		this.connections = connections;
		this.layout = layout;
		this.diagnosis = diagnosis;
		this.server = server;
		this.settings = settings;
	}

	/**
	 * @return null when the spec can run here, else why not
	 */
	public @Nullable String unsupported(RunSpec spec) {
		String connector = connectorUnsupported(spec);
		return (connector != null) ? connector : this.runners.get(spec.mode()).unsupported(spec, this.topology);
	}

	/**
	 * What the Jedis connector cannot do here; null when it can (or for Lettuce).
	 */
	private @Nullable String connectorUnsupported(RunSpec spec) {
		if (spec.senders().connector() != Connector.JEDIS) {
			return null;
		}
		if (spec.mode() == Mode.ASYNC) {
			return "async is Lettuce's own API, below Spring Data Redis; Jedis has no counterpart";
		}
		if (spec.mode() == Mode.PIPELINED_TRANSACTION) {
			return "Spring Data Redis's Jedis connection takes no MULTI inside a pipeline (\"Cannot use Transaction"
					+ " while a pipeline is open\"); jedis-transaction works";
		}
		if (spec.mode() == Mode.REACTIVE) {
			return "Spring Data Redis's reactive API runs on Lettuce only; Jedis has no reactive driver";
		}
		if (spec.mode() == Mode.PIPELINED && this.topology.kind() == Topology.Kind.CLUSTER) {
			// Spring Data Redis 4.1's JedisClusterConnection.openPipeline() throws
			// InvalidDataAccessApiUsageException
			// ("Pipeline is not supported for JedisClusterConnection"):
			// JedisClusterConnectorTests shows it.
			return "Spring Data Redis's Jedis cluster connection does not pipeline: executePipelined fails with"
					+ " \"Pipeline is not supported for JedisClusterConnection\". The Jedis loop works on a cluster,"
					+ " and Lettuce pipelines there";
		}
		return null;
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
		List<RunSpec> specs = List.of(spec);
		ServerCounters.Snapshot before = this.safeguards.preflight(spec, specs, false, this::keySpaceOf);
		observer.started(spec.repeat() * spec.batchesPerPass());
		return this.safeguards.leavingExpiry(spec, specs, false, this::keySpaceOf,
				() -> measure(spec, false, observer, before));
	}

	private KeySpace keySpaceOf(RunSpec spec) {
		return this.runners.get(spec.mode()).keySpace(this.keys);
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
		List<RunResult> compared = results.stream()
			.map((result) -> result
				.partOfMany(round(reference(results, result).elapsedMillis() / result.elapsedMillis(), 2)))
			.toList();
		return new Comparison(base.operation(), base.count(), this.topology.kind().toString(), compared,
				List.copyOf(skipped), Comparison.summary(compared), this.settings.inEffect());
	}

	/**
	 * The loop of the same connector when it ran, else the first loop, else the first
	 * result: Jedis rows are measured against the Jedis loop.
	 */
	private static RunResult reference(List<RunResult> results, RunResult result) {
		return results.stream()
			.filter((other) -> other.mode() == Mode.LOOP && other.connector().name().equals(result.connector().name()))
			.findFirst()
			.or(() -> results.stream().filter((other) -> other.mode() == Mode.LOOP).findFirst())
			.orElse(results.get(0));
	}

	/**
	 * Pipelined runs of the same work at each batch size: the Redis docs'
	 * throughput-against-length figure.
	 */
	public Sweep sweep(RunSpec base, List<Integer> batchSizes, RunObserver observer) {
		RunSpec pipelined = base.with(new Variant(Mode.PIPELINED, null, base.senders().connector()));
		requireSupported(pipelined);
		List<RunSpec> runs = batchSizes.stream().map(pipelined::withBatchSize).toList();
		List<RunResult> results = measureAll(base, runs, observer).stream()
			.map((result) -> result.partOfMany(null))
			.toList();
		return new Sweep(base.operation(), base.count(), this.topology.kind().toString(), results,
				Sweep.summary(results), this.settings.inEffect());
	}

	private List<RunResult> measureAll(RunSpec base, List<RunSpec> specs, RunObserver observer) {
		// Read before the first key is written: what the servers evict from then on is
		// the run's doing.
		ServerCounters.Snapshot before = this.safeguards.preflight(base, specs, true, this::keySpaceOf);
		observer.started(specs.stream().mapToLong((spec) -> spec.repeat() * spec.batchesPerPass()).sum());
		return this.safeguards.leavingExpiry(base, specs, true, this::keySpaceOf,
				() -> prepareAndMeasure(base, specs, observer, before));
	}

	private List<RunResult> prepareAndMeasure(RunSpec base, List<RunSpec> specs, RunObserver observer,
			ServerCounters.@Nullable Snapshot before) {
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
					this.data.writeKeys(keys, base.count(), setupBatch(base), base.valueSize(), observer);
				}
			}
			catch (DataAccessException ex) {
				throw new RunFailedException(base, 0, 0, keyOf(base.operation()), ex);
			}
		}
		List<RunResult> results = new ArrayList<>();
		for (RunSpec spec : specs) {
			results.add(measure(spec, true, observer, results.isEmpty() ? before : null));
		}
		return results;
	}

	/**
	 * @param since the servers' counters before the run wrote anything (the preflight's);
	 * null to count from the first timed pass
	 */
	private RunResult measure(RunSpec spec, boolean prepare, RunObserver observer,
			ServerCounters.@Nullable Snapshot since) {
		ServerCounters.Snapshot runBefore = since;
		BatchRunner runner = this.runners.get(spec.mode());
		KeySpace keys = runner.keySpace(this.keys);
		Tally tally = new Tally(spec.sample());
		long batchesDone = 0;
		int roundTrip = runner.perRoundTrip(spec.batchSize());
		try (Connections.Lease lease = lease(spec)) {
			Route route = lease.route();
			Pass pass = new Pass(spec, keys, route);
			String variant = variantLabel(spec, route);
			warmUp(runner, route, spec, observer, variant);
			double rttMillis = measureRtt(route, observer);
			Map<String, Double> nodeRttMillis = NodeRoundTrips.measure(route, NODE_RTT_PINGS);
			long[] passNanos = new long[spec.repeat()];
			Clients.Outcome[] outcomes = new Clients.Outcome[spec.repeat()];
			ServerConnections.Usage usage = null;
			long counterBefore = 0;
			ServerStats[] passServer = new ServerStats[spec.repeat()];
			ClusterLayout.Spread spread = spread(spec, keys);
			BatchRunner.ClusterEffect effect = (spread != null && route.connector() == Connector.LETTUCE)
					? runner.onCluster(spec, spread) : null;
			long sent = sentPerPass(spec, effect);
			// Only reads may be served by replicas; RPOP removes, so its master runs it
			// and
			// the replicas replay it, which would count it twice.
			boolean replicasServe = spec.operation() == Operation.GET || spec.operation() == Operation.PING;
			Long foreign = null;
			long[] pausedNanos = new long[spec.repeat()];
			for (int repeat = 0; repeat < spec.repeat(); repeat++) {
				if (prepare) {
					prepare(spec, keys, observer, variant);
				}
				if (spec.operation() == Operation.INCR) {
					counterBefore = this.data.counter(keys);
				}
				ServerConnections.Snapshot connectionsBefore = this.serverConnections.beforePass(route, commands(spec),
						spec.clients());
				observer.phase(RunObserver.Phase.TIMING, variant, spec.batchSize(), spec.itemsPerPass());
				// Outside the timed region, as close to it as can be.
				long windowStart = System.nanoTime();
				ServerCounters.Snapshot before = this.server.snapshot();
				if (runBefore == null) {
					runBefore = before;
				}
				PauseWatch watch = PauseWatch.start();
				Clients.Outcome outcome;
				try {
					outcome = Clients.run(spec, roundTrip, per(spec, runner),
							(from, to, replies) -> runner.run(pass, from, to, replies), observer);
				}
				finally {
					pausedNanos[repeat] = watch.stop();
				}
				ServerCounters.Snapshot after = this.server.snapshot();
				long windowNanos = System.nanoTime() - windowStart;
				if (outcome.failure() != null) {
					batchesDone = outcome.batches();
					tally = outcome.tally(spec.sample());
					throw outcome.failure();
				}
				passServer[repeat] = this.server.between(before, after, replicasServe);
				Long excess = ForeignCommands.beyondBookkeeping(this.server.processed(before, after, replicasServe),
						sent, windowNanos);
				if (excess != null && (foreign == null || excess > foreign)) {
					foreign = excess;
				}
				usage = ServerConnections.usage(connectionsBefore, this.serverConnections.snapshot(), route,
						commands(spec));
				passNanos[repeat] = outcome.nanos();
				outcomes[repeat] = outcome;
				sent(spec).addAndGet(spec.itemsPerPass());
			}
			if (EnumSet.of(Operation.SET, Operation.HSET, Operation.SADD, Operation.ZADD, Operation.LPUSH)
				.contains(spec.operation())) {
				observer.phase(RunObserver.Phase.VERIFYING, variant, spec.batchSize(), spec.count());
			}
			return result(spec, keys, route, spread, effect, outcomes, passNanos, pausedNanos,
					passServer[medianIndex(passNanos)], runBefore, foreign, rttMillis, nodeRttMillis, usage,
					counterBefore, observer);
		}
		catch (DataAccessException ex) {
			throw failed(spec, batchesDone, tally, ex);
		}
	}

	/**
	 * What one latency sample is: the whole request in fan-out, else one round trip (a
	 * command of the loop, a batch of the others).
	 */
	private static Latency.Per per(RunSpec spec, BatchRunner runner) {
		if (spec.workload().requests() > 1) {
			return Latency.Per.REQUEST;
		}
		return (runner.perRoundTrip(spec.batchSize()) == 1) ? Latency.Per.COMMAND : Latency.Per.BATCH;
	}

	/**
	 * Loop, multi-key and script calls take a connection as the run says; pipelines
	 * always take a dedicated one from the pool, so they run on the pooled route.
	 */
	private Connections.Lease lease(RunSpec spec) {
		RunSpec.Senders senders = spec.senders();
		Sharing sharing = switch (spec.mode()) {
			case PIPELINED, PIPELINED_BY_NODE, ASYNC, TRANSACTION, PIPELINED_TRANSACTION, TRANSACTION_HASHTAG ->
				Sharing.POOLED;
			default -> senders.sharing();
		};
		return this.connections.lease(senders.connector(), sharing, spec.flushPolicy(), spec.writes(), spec.addedRtt());
	}

	/** The commands the run sends, as CLIENT LIST names them. */
	private static Set<String> commands(RunSpec spec) {
		String single = spec.operation().label();
		return switch (spec.mode()) {
			case MULTI_KEY, MULTI_KEY_HASHTAG -> switch (spec.operation()) {
				// Jedis on a cluster sends one SET or GET per key when the keys span
				// slots.
				case SET -> Set.of("mset", "set");
				case GET -> Set.of("mget", "get");
				default -> Set.of(single);
			};
			case SCRIPT -> Set.of("evalsha", "eval");
			case TRANSACTION, PIPELINED_TRANSACTION, TRANSACTION_HASHTAG -> Set.of(single, "multi", "exec");
			default -> Set.of(single);
		};
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
				verified = this.data
					.verify(Operation.SET, this.keys, reached, setupBatch(spec), spec.valueSize(), new Tally(0),
							RunObserver.NONE)
					.verified();
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
		if (spec.valueSize() > 0) {
			items = Math.min(items, Math.max(spec.batchSize(), WARMUP_BYTES / spec.valueSize()));
		}
		RunSpec warmup = spec.withCount(Math.min(spec.count(), items));
		observer.phase(RunObserver.Phase.WARM_UP, variant, spec.batchSize(), warmup.count());
		KeySpace warmupKeys = runner.keySpace(this.warmupKeys);
		if (spec.operation() == Operation.RPOP) {
			this.data.refillList(warmupKeys, warmup.count(), setupBatch(spec), spec.valueSize(), RunObserver.NONE);
		}
		// As many clients as the run, so the pool holds the connections it needs before
		// the clock starts.
		Pass pass = new Pass(warmup, warmupKeys, route);
		// Round trip by round trip, as the timed pass: a loop's warm-up batch is many
		// round trips, and a cancel is checked between them.
		RuntimeException failure = Clients
			.run(warmup, runner.perRoundTrip(warmup.batchSize()), Latency.Per.BATCH,
					(from, to, replies) -> runner.run(pass, from, to, replies), RunObserver.cancellationOf(observer))
			.failure();
		if (failure != null) {
			throw failure;
		}
		sent.addAndGet(warmup.count());
		String key = spec.operation().key(warmupKeys);
		if (spec.operation() == Operation.SET) {
			this.data.deleteKeys(warmupKeys, warmup.count(), setupBatch(spec), RunObserver.NONE);
		}
		else if (key != null) {
			this.data.delete(key);
		}
	}

	private AtomicLong sent(RunSpec spec) {
		return this.sent.computeIfAbsent(new Work(spec.mode(), spec.operation()), (key) -> new AtomicLong());
	}

	/** What the JIT compiles separately: one mode sending one operation. */
	private record Work(Mode mode, Operation operation) {
	}

	/**
	 * The state every variant starts from: SET's keys absent, the list holding what RPOP
	 * will pop, the one key of INCR, HSET, SADD, ZADD and LPUSH absent.
	 */
	private void prepare(RunSpec spec, KeySpace keys, RunObserver observer, String variant) {
		if (spec.operation() == Operation.SET || spec.operation() == Operation.RPOP) {
			observer.phase(RunObserver.Phase.PREPARING, variant, spec.batchSize(), spec.count());
		}
		switch (spec.operation()) {
			case SET -> this.data.deleteKeys(keys, spec.count(), setupBatch(spec), observer);
			case RPOP -> this.data.refillList(keys, spec.itemsPerPass(), setupBatch(spec), spec.valueSize(), observer);
			case INCR, HSET, SADD, ZADD, LPUSH -> this.data.delete(spec.operation().key(keys));
			default -> {
			}
		}
	}

	/** Operations that write, whose acknowledged commands are reported as written. */
	static boolean writes(Operation operation) {
		return switch (operation) {
			case GET, RPOP, PING -> false;
			case SET, RPUSH, LPUSH, INCR, HSET, SADD, ZADD -> true;
		};
	}

	/**
	 * Median PING round trip on the run's route, so an added RTT is shown as measured,
	 * not as configured.
	 */
	private static double measureRtt(Route route, RunObserver observer) {
		long[] nanos = new long[RTT_PINGS];
		for (int i = 0; i < RTT_PINGS; i++) {
			// Eleven PINGs through a one-second relay are eleven seconds: a cancel
			// does not wait for them.
			if (observer.cancelled()) {
				throw new RunCancelledException();
			}
			long start = System.nanoTime();
			route.template().execute((RedisCallback<String>) Ping::once);
			nanos[i] = System.nanoTime() - start;
		}
		return round(median(nanos) / 1e6, 3);
	}

	private void requireSupported(RunSpec spec) {
		String connector = connectorUnsupported(spec);
		if (connector != null) {
			throw new UnsupportedRunException(spec, "connector", connector);
		}
		String reason = this.runners.get(spec.mode()).unsupported(spec, this.topology);
		if (reason != null) {
			throw new UnsupportedRunException(spec, "mode", reason);
		}
	}

	/**
	 * How the run's keys spread over a cluster's masters; null off a cluster and for
	 * PING.
	 */
	private ClusterLayout.@Nullable Spread spread(RunSpec spec, KeySpace keys) {
		if (spec.operation() == Operation.PING) {
			return null;
		}
		String key = spec.operation().key(keys);
		return (key == null) ? this.layout.ofKeys(keys, spec.count(), spec.batchSize())
				: this.layout.ofKey(key, spec.count(), spec.batchSize());
	}

	/**
	 * Redis commands one timed pass sends, as the servers count them: one per item, but
	 * one per batch for multi-key commands (one per slot where a cluster split them; one
	 * per key where Jedis split them), and for a script its EVALSHA per batch and the
	 * command it calls per item, which Redis counts too.
	 */
	private long sentPerPass(RunSpec spec, BatchRunner.@Nullable ClusterEffect effect) {
		long requests = spec.workload().requests();
		return switch (spec.mode()) {
			case MULTI_KEY, MULTI_KEY_HASHTAG -> {
				if (effect != null) {
					yield effect.commands() * requests;
				}
				// A hash-tagged batch shares one slot, so Jedis sends it whole.
				boolean splitByJedis = spec.mode() == Mode.MULTI_KEY && spec.senders().connector() == Connector.JEDIS
						&& this.topology.kind() == Topology.Kind.CLUSTER
						&& (spec.operation() == Operation.SET || spec.operation() == Operation.GET);
				yield splitByJedis ? spec.itemsPerPass() : spec.batchesPerPass();
			}
			case SCRIPT -> spec.batchesPerPass() + spec.itemsPerPass();
			// MULTI and EXEC around every batch.
			case TRANSACTION, PIPELINED_TRANSACTION, TRANSACTION_HASHTAG ->
				2 * spec.batchesPerPass() + spec.itemsPerPass();
			default -> spec.itemsPerPass();
		};
	}

	private RunResult result(RunSpec spec, KeySpace keys, Route route, ClusterLayout.@Nullable Spread spread,
			BatchRunner.@Nullable ClusterEffect effect, Clients.Outcome[] outcomes, long[] passNanos,
			long[] pausedNanos, @Nullable ServerStats passServer, ServerCounters.@Nullable Snapshot runBefore,
			@Nullable Long foreign, double rttMillis, @Nullable Map<String, Double> nodeRttMillis,
			ServerConnections.@Nullable Usage usage, long counterBefore, RunObserver observer) {
		BatchRunner runner = this.runners.get(spec.mode());
		long count = spec.count();
		int perRoundTrip = (int) Math.min(runner.perRoundTrip(spec.batchSize()), count);
		// The median pass's clients and latency.
		Clients.Outcome shown = outcomes[medianIndex(passNanos)];
		// A time limit: what ran, and what the last pass left to read back.
		boolean timed = spec.workload().duration() != null;
		long items = timed ? shown.sent() : spec.itemsPerPass();
		Clients.Outcome last = outcomes[outcomes.length - 1];
		Tally tally = shown.tally(spec.sample());
		LatencyRecorder latency = shown.latency();
		// Round trips of one request, over every client.
		long batches = (perRoundTrip == 1) ? (timed ? items : count) : (timed ? shown.batches() : spec.batches());
		double elapsedNanos = median(passNanos);
		List<Double> repeatMillis = (passNanos.length > 1)
				? java.util.Arrays.stream(passNanos).mapToObj((nanos) -> round(nanos / 1e6, 3)).toList() : null;
		Long written = writes(spec.operation()) ? tally.values() : null;
		Long verified = null;
		Long hits = null;
		Long misses = null;
		Long popped = null;
		Long empty = null;
		Long pongs = null;
		List<String> sample = tally.sample();
		DemoData.ReadBack readBack = null;
		switch (spec.operation()) {
			case SET, HSET, SADD, ZADD, LPUSH -> {
				Tally read = new Tally(spec.sample());
				readBack = timed
						? this.data.verify(spec.operation(), keys, last.reached(), setupBatch(spec), spec.valueSize(),
								read, observer)
						: this.data.verify(spec.operation(), keys, count, setupBatch(spec), spec.valueSize(), read,
								observer);
				verified = readBack.verified();
				sample = read.sample();
			}
			// What the counter gained, as read back: exactly the INCRs sent when nothing
			// else touched it.
			case INCR -> verified = this.data.counter(keys) - counterBefore;
			case GET -> {
				hits = tally.values();
				misses = tally.nils();
			}
			case RPOP -> {
				popped = tally.values();
				empty = tally.nils();
			}
			case PING -> pongs = tally.values();
			case RPUSH -> {
			}
		}
		// Once verified: what the servers evicted or expired over the whole run.
		ServerStats server = this.server.withRunWide(passServer, runBefore, this.server.snapshot());
		Double addedRttMillis = (route.addedRtt() != null) ? round(route.addedRtt().toNanos() / 1e6, 3) : null;
		boolean pipelined = spec.mode() == Mode.PIPELINED;
		boolean lettuce = route.connector() == Connector.LETTUCE;
		String variant = variantLabel(spec, route);
		String key = spec.operation().key(keys);
		// Only buffered Lettuce pipelines and async batches hand several commands to
		// Netty
		// at once; flush-each-command writes each on its own whichever endpoint it is.
		boolean buffers = lettuce && ((pipelined && route.flushPolicy().kind() != FlushPolicy.Kind.FLUSH_EACH_COMMAND)
				|| spec.mode() == Mode.ASYNC);
		String writes = buffers ? route.writes().label() : null;
		RunResult.ConnectorUse connector = new RunResult.ConnectorUse(route.connector().label(),
				route.sharing().label(), pipelined ? route.connector().pipelineWrites() : null);
		RunResult.ConnectionsUsed connections = (usage != null)
				? new RunResult.ConnectionsUsed(usage.used(), usage.opened()) : null;
		double seconds = elapsedNanos / 1e9;
		RunResult.Payload payload = (spec.valueSize() > 0) ? new RunResult.Payload(spec.valueSize(),
				round(items * (double) spec.valueSize() / seconds, 0), spec.workload().batchSizeAsked(),
				(spec.workload().batchSizeAsked() != null) ? spec.workload().maxBatchBytes() : null) : null;
		RunResult.FanOut fanOut = (spec.workload().requests() > 1)
				? new RunResult.FanOut(spec.workload().requests(), round(spec.workload().requests() / seconds, 1))
				: null;
		double opsPerSecond = round(items / seconds, 1);
		String note = join(oneKeyNote(spec, key), (effect != null) ? effect.note() : null, shrunkNote(spec),
				nothingFound(spec.operation(), tally), pauses(pausedNanos), Shortfall.evictions(server),
				(readBack != null) ? Shortfall.reason(timed ? last.sent() : count, readBack, server, spec.ttl() != null)
						: null);
		return new RunResult(spec.operation(), spec.mode(), variant,
				(pipelined && lettuce) ? route.flushPolicy().toString() : null, writes, count, perRoundTrip, batches,
				this.topology.kind().toString(), round(elapsedNanos / 1e6, 3), opsPerSecond, spec.repeat(),
				repeatMillis, addedRttMillis, rttMillis, nodeRttMillis, written, verified, hits, misses, popped, empty,
				pongs, (spread != null) ? spread.keysPerNode() : null, (spread != null) ? spread.slotsTouched() : null,
				(effect != null) ? effect.commands() : null,
				(tally.redirectsCount() > 0) ? tally.redirectsCount() : null, note, sample, null, latency.latency(),
				payload, fanOut, RunResult.OfferedRate.of(spec.workload(), opsPerSecond),
				TimeLimit.of(spec.workload(), shown), connector, connections, clients(shown),
				this.diagnosis.sentinelMaster(), server, foreign, this.settings.inEffect());
	}

	/**
	 * Says so when a read or pop found nothing at all, since an ops/s figure alone would
	 * not tell.
	 */
	private static @Nullable String nothingFound(Operation operation, Tally tally) {
		if (tally.values() > 0) {
			return null;
		}
		return switch (operation) {
			case GET -> "None of the keys existed: every GET answered nil. Write them first (/pipeset/{count}).";
			case RPOP -> "The list was empty: every RPOP answered nil. Fill it first (/listinput/{count}).";
			default -> null;
		};
	}

	/**
	 * Each client's range and rate; null for a single client, whose figures are the
	 * run's.
	 */
	private static RunResult.@Nullable ClientsReport clients(Clients.Outcome outcome) {
		if (outcome.clients().size() == 1) {
			return null;
		}
		List<RunResult.PerClient> perClient = outcome.clients()
			.stream()
			.map((client) -> new RunResult.PerClient(client.index, client.first, client.first + client.done() - 1,
					client.done(), round(client.nanos / 1e6, 3), round(client.done() / (client.nanos / 1e9), 1)))
			.toList();
		double[] rates = perClient.stream().mapToDouble(RunResult.PerClient::opsPerSecond).sorted().toArray();
		int middle = rates.length / 2;
		double medianRate = (rates.length % 2 == 1) ? rates[middle] : (rates[middle - 1] + rates[middle]) / 2;
		return new RunResult.ClientsReport(perClient.size(),
				new RunResult.Spread(rates[0], round(medianRate, 1), rates[rates.length - 1]), perClient);
	}

	/**
	 * INCR, HSET, SADD, ZADD and the lists work on one key, as in redis-benchmark: the
	 * answer says so, and how the multi-key variant sends a batch.
	 */
	private static @Nullable String oneKeyNote(RunSpec spec, @Nullable String key) {
		if (key == null) {
			return null;
		}
		String what = switch (spec.operation()) {
			case INCR -> "INCR increments one counter, " + key + ", once per item";
			case HSET -> "HSET writes one key, " + key + ", with " + spec.count() + " fields (field:<i>), not "
					+ spec.count() + " keys";
			case SADD -> "SADD writes one key, " + key + ", a set with " + spec.count() + " members, not "
					+ spec.count() + " keys";
			case ZADD -> "ZADD writes one key, " + key + ", a sorted set with " + spec.count()
					+ " members scored by their index, not " + spec.count() + " keys";
			case LPUSH -> "LPUSH pushes " + spec.count() + " elements onto one key, " + key;
			default -> null;
		};
		if (what == null) {
			return null;
		}
		String multi = switch (spec.operation()) {
			case HSET -> "one HMSET (HSET with many field-value pairs) per batch";
			case SADD, LPUSH, ZADD -> "one " + spec.operation() + " with many arguments per batch";
			default -> null;
		};
		return what + ((spec.mode() == Mode.MULTI_KEY && multi != null) ? ", " + multi + "." : ".");
	}

	private static @Nullable String shrunkNote(RunSpec spec) {
		Integer asked = spec.workload().batchSizeAsked();
		if (asked == null) {
			return null;
		}
		return "Batches of " + asked + " values of " + spec.valueSize()
				+ " bytes would exceed lab.limits.max-batch-bytes (" + spec.workload().maxBatchBytes()
				+ "), so they were shrunk to " + spec.batchSize() + ".";
	}

	private static @Nullable String join(@Nullable String... notes) {
		String joined = java.util.Arrays.stream(notes)
			.filter(java.util.Objects::nonNull)
			.collect(java.util.stream.Collectors.joining(" "));
		return joined.isEmpty() ? null : joined;
	}

	private static String variantLabel(RunSpec spec, Route route) {
		return Variant.of(spec, route.flushPolicy()).label();
	}

	/**
	 * Set-up and read-back batches: long whatever batch size is measured, but never more
	 * values than the run's byte budget lets one batch hold.
	 */
	private static int setupBatch(RunSpec spec) {
		return (spec.valueSize() > 0) ? Math.min(SETUP_BATCH, spec.workload().batchSizeLimit()) : SETUP_BATCH;
	}

	/**
	 * Pauses of this process inside timed passes: their time is in the figures, so the
	 * answer says so rather than passing it off as the client's or Redis's.
	 */
	private static @Nullable String pauses(long[] pausedNanos) {
		List<String> passes = new ArrayList<>();
		for (int i = 0; i < pausedNanos.length; i++) {
			if (pausedNanos[i] > 0) {
				passes.add(round(pausedNanos[i] / 1e6, 1) + " ms of pass " + (i + 1));
			}
		}
		return passes.isEmpty() ? null
				: "This process was not running for " + String.join(", ", passes)
						+ " (a stop-the-world GC, a stopped process or VM, or a machine too busy to schedule it);"
						+ " the pass times include it, so run again for clean figures.";
	}

	private String keyOf(Operation operation) {
		String key = operation.key(this.keys);
		if (key != null) {
			return key;
		}
		return (operation == Operation.PING) ? "(no key)" : this.keys.keyPattern();
	}

	/** The pass whose time is the median (the lower of the two middle ones). */
	private static int medianIndex(long[] values) {
		Integer[] order = new Integer[values.length];
		for (int i = 0; i < order.length; i++) {
			order[i] = i;
		}
		java.util.Arrays.sort(order, java.util.Comparator.comparingLong((Integer i) -> values[i]));
		return order[(values.length - 1) / 2];
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
