package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Route;
import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.redis.ServerStats;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

import static dev.pipelininglab.run.RunService.setupBatch;

/** Sends a run's timed passes and keeps what clock, clients and servers saw. */
@Component
record TimedPasses(RunKeys data, ServerCounters server, WarmUp warmUp, Topology topology) {

	private static final long FOREIGN_PER_NODE = 50;

	private static final long FOREIGN_PER_NODE_PER_SECOND = 100;

	/**
	 * A run's passes, to be sent one at a time ({@link Sending#next}) so a comparison can
	 * interleave its variants' passes. {@code since}: the preflight's counters, or null
	 * to count from the first pass.
	 */
	Sending start(RunSpec spec, BatchRunner runner, KeySpace keys, Route route, String variant,
			BatchRunner.@Nullable ClusterEffect effect, boolean prepare, RunObserver observer,
			ServerCounters.@Nullable Snapshot since, Progress progress, Written written) {
		return new Sending(spec, runner, keys, route, variant, effect, prepare, observer, since, progress, written);
	}

	/**
	 * The passes of one run sent so far, each from the state every variant starts from.
	 */
	final class Sending {

		private final BatchRunner runner;

		private final String variant;

		private final boolean prepare;

		private final RunObserver observer;

		private final Progress progress;

		private final Written written;

		private final int roundTrip;

		private final Pass pass;

		private final long sent;

		// Replicas replay RPOP, which would count it twice; only reads are theirs.
		private final boolean replicasServe;

		private final List<Timed> timed;

		private ServerCounters.@Nullable Snapshot runBefore;

		private ServerCounters.@Nullable Usage usage;

		private long counterBefore;

		private @Nullable Long foreign;

		private Sending(RunSpec spec, BatchRunner runner, KeySpace keys, Route route, String variant,
				BatchRunner.@Nullable ClusterEffect effect, boolean prepare, RunObserver observer,
				ServerCounters.@Nullable Snapshot since, Progress progress, Written written) {
			this.runner = runner;
			this.variant = variant;
			this.prepare = prepare;
			this.observer = observer;
			this.progress = progress;
			this.written = written;
			this.runBefore = since;
			this.roundTrip = runner.perRoundTrip(spec.batchSize());
			this.pass = new Pass(spec, keys, route);
			this.timed = new ArrayList<>(spec.repeat());
			this.sent = sentPerPass(spec, (effect != null) ? effect.commands() : null);
			this.replicasServe = spec.operation().command().readsOnly();
		}

		/** Whether all {@code repeat} passes were sent. */
		boolean done() {
			return this.timed.size() >= this.pass.spec().repeat();
		}

		void next() {
			RunSpec spec = this.pass.spec();
			KeySpace keys = this.pass.keys();
			Route route = this.pass.route();
			if (this.prepare) {
				prepare(spec, keys, this.observer, this.variant, this.written);
			}
			if (spec.operation().command() instanceof IncrCommand) {
				this.counterBefore = TimedPasses.this.data.counter(keys);
			}
			ServerCounters server = TimedPasses.this.server;
			ServerCounters.ClientList connectionsBefore = server.clientsBefore(route, commands(spec), spec.clients());
			this.observer.phase(RunObserver.Phase.TIMING, this.variant, spec.batchSize(), spec.itemsPerPass());
			// Outside the timed region, as close to it as can be.
			long windowStart = System.nanoTime();
			ServerCounters.Snapshot before = server.snapshot();
			long beforeRead = System.nanoTime();
			if (this.runBefore == null) {
				this.runBefore = before;
			}
			CpuTime.Reading cpuBefore = CpuTime.Reading.now();
			PauseWatch watch = PauseWatch.start();
			ClientThreads.Outcome outcome;
			long paused;
			try {
				outcome = ClientThreads.run(spec, this.roundTrip, per(spec, this.runner),
						(from, to, replies) -> this.runner.run(this.pass, from, to, replies), this.observer);
			}
			finally {
				paused = watch.stop();
			}
			CpuTime.Reading cpuAfter = CpuTime.Reading.now();
			long afterRead = System.nanoTime();
			ServerCounters.Snapshot after = server.snapshot();
			long windowNanos = System.nanoTime() - windowStart;
			outcome.attempted().forEach((range) -> this.written.items(spec, keys, range.from(), range.to()));
			if (outcome.failure() != null) {
				this.progress.attempted = outcome.attempted();
				this.progress.batchesDone = outcome.batches();
				this.progress.tally = outcome.tally(spec.sample());
				throw outcome.failure();
			}
			// From the middle of one INFO snapshot to the middle of the other.
			long afterStarted = afterRead - windowStart;
			long serverWindow = afterStarted + (windowNanos - afterStarted) / 2 - (beforeRead - windowStart) / 2;
			this.timed.add(new Timed(outcome, paused, server.between(before, after, this.replicasServe),
					measured(outcome, cpuBefore, cpuAfter, route, serverWindow, before, after)));
			Long excess = beyondBookkeeping(server.processed(before, after, this.replicasServe), this.sent,
					windowNanos);
			if (excess != null && (this.foreign == null || excess > this.foreign)) {
				this.foreign = excess;
			}
			this.usage = server.usage(connectionsBefore, before, after, route, commands(spec));
			TimedPasses.this.warmUp.sent(spec).addAndGet(outcome.sent());
		}

		/** Once {@link #done()}. */
		Passes passes() {
			return new Passes(List.copyOf(this.timed), this.runBefore, this.foreign, this.usage, this.counterBefore);
		}

	}

	/**
	 * Commands the servers processed during a timed pass that the run did not send:
	 * another client on the same Redis makes the figures measure it too. A quiet Redis'
	 * own traffic (the lab's INFO around the pass, job progress records, sentinels,
	 * REPLCONF ACK, Lettuce's topology refresh, health probes) stays well under
	 * {@value #FOREIGN_PER_NODE_PER_SECOND} a second on any node, and a client below that
	 * is a trickle that would not move the figures beyond the spread between passes.
	 * @param sent inner commands of a script included
	 * @param windowNanos from the first INFO read to the last
	 * @return the commands beyond {@code sent}, or null within what is allowed
	 */
	static @Nullable Long beyondBookkeeping(ServerCounters.@Nullable Processed processed, long sent, long windowNanos) {
		if (processed == null) {
			return null;
		}
		long excess = processed.commands() - sent;
		double allowed = processed.nodes() * (FOREIGN_PER_NODE + FOREIGN_PER_NODE_PER_SECOND * windowNanos / 1e9);
		return (excess > allowed) ? excess : null;
	}

	private static Bottleneck.Measured measured(ClientThreads.Outcome outcome, CpuTime.Reading before,
			CpuTime.Reading after, Route route, long serverWindowNanos, ServerCounters.Snapshot serverBefore,
			ServerCounters.Snapshot serverAfter) {
		long process = (before.process() >= 0 && after.process() >= 0) ? after.process() - before.process() : -1;
		long sending = Math.max(outcome.busiestSender(), CpuTime.busiest(before.nodeSenders(), after.nodeSenders()));
		long eventLoop = (route.connector() == Connector.LETTUCE) ? CpuTime.busiest(before.lettuce(), after.lettuce())
				: -1;
		return new Bottleneck.Measured(outcome.nanos(), after.wallNanos() - before.wallNanos(), process,
				after.machine(), sending, eventLoop, serverWindowNanos,
				ServerCounters.cpuSeconds(serverBefore, serverAfter), Bottleneck.local(serverAfter.nodes().keySet()));
	}

	private static Latency.Per per(RunSpec spec, BatchRunner runner) {
		if (spec.workload().requests() > 1) {
			return Latency.Per.REQUEST;
		}
		return (runner.perRoundTrip(spec.batchSize()) == 1) ? Latency.Per.COMMAND : Latency.Per.BATCH;
	}

	/** The commands the run sends, as CLIENT LIST names them. */
	private static Set<String> commands(RunSpec spec) {
		String single = spec.operation().label();
		return switch (spec.mode()) {
			case MULTI_KEY, MULTI_KEY_HASHTAG -> MultiKeyRunner.commandNames(spec.operation().command());
			case SCRIPT -> Set.of("evalsha", "eval");
			case TRANSACTION, PIPELINED_TRANSACTION, TRANSACTION_HASHTAG -> Set.of(single, "multi", "exec");
			default -> Set.of(single);
		};
	}

	/** The state every variant starts from. */
	private void prepare(RunSpec spec, KeySpace keys, RunObserver observer, String variant, Written written) {
		Command command = spec.operation().command();
		written.key(command.key(keys));
		if (command.showsPreparing()) {
			observer.phase(RunObserver.Phase.PREPARING, variant, spec.batchSize(), spec.count());
		}
		command.prepare(this.data, spec, keys, setupBatch(spec), observer);
	}

	/**
	 * As the servers count them: a script's EVALSHA and each call.
	 * @param clusterCommands the multi-key commands a cluster split the pass into, if any
	 */
	long sentPerPass(RunSpec spec, @Nullable Long clusterCommands) {
		long requests = spec.workload().requests();
		return switch (spec.mode()) {
			case MULTI_KEY, MULTI_KEY_HASHTAG -> {
				if (clusterCommands != null) {
					yield clusterCommands * requests;
				}
				// A hash-tagged batch shares one slot, so Jedis sends it whole.
				boolean splitByJedis = spec.mode() == Mode.MULTI_KEY && spec.senders().connector() == Connector.JEDIS
						&& this.topology.kind() == Topology.Kind.CLUSTER
						&& MultiKeyRunner.name(spec.operation().command()) != null;
				yield splitByJedis ? spec.itemsPerPass() : spec.batchesPerPass();
			}
			case SCRIPT -> spec.batchesPerPass() + spec.itemsPerPass();
			// MULTI and EXEC around every batch.
			case TRANSACTION, PIPELINED_TRANSACTION, TRANSACTION_HASHTAG ->
				2 * spec.batchesPerPass() + spec.itemsPerPass();
			default -> spec.itemsPerPass();
		};
	}

	/** What one timed pass saw: its clients, its pauses, its servers and its CPU. */
	record Timed(ClientThreads.Outcome outcome, long pausedNanos, @Nullable ServerStats server,
			Bottleneck.Measured cpu) {
	}

	/** {@code foreign}: the most commands a pass saw that the run did not send. */
	record Passes(List<Timed> timed, ServerCounters.@Nullable Snapshot runBefore, @Nullable Long foreign,
			ServerCounters.@Nullable Usage usage, long counterBefore) {

		/**
		 * The median pass, whose figures are the ones shown: the lower of the two middle
		 * ones, by time per item sent (passes by time all last their limit; passes by
		 * count send the same items, so this is their time).
		 */
		Timed shown() {
			return this.timed.stream()
				.sorted(Comparator.comparingDouble(
						(Timed pass) -> (double) pass.outcome().nanos() / Math.max(1, pass.outcome().sent())))
				.toList()
				.get((this.timed.size() - 1) / 2);
		}

		long[] nanos() {
			return this.timed.stream().mapToLong((pass) -> pass.outcome().nanos()).toArray();
		}

	}

	/** How far a failed pass got, for the failure report. */
	static final class Progress {

		long batchesDone;

		Tally tally;

		/** The items the failing pass sent, by client; none when it never began. */
		List<ClientThreads.Reach> attempted = List.of();

		Progress(int sample) {
			this.tally = new Tally(sample);
		}

	}

}
