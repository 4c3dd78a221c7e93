package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.NodeRoundTrips;
import dev.pipelininglab.redis.Route;
import dev.pipelininglab.redis.RouteCache;
import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.redis.Sharing;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * One variant's measurement from its warm-up to its answer, its timed passes sent one at
 * a time so that {@link RunService} can interleave the passes of every variant of a
 * comparison round by round.
 */
@Component
record Measurements(Runners runners, RunKeys data, KeySpace keys, RouteCache routes, ClusterLayout layout,
		WarmUp warmUp, TimedPasses timedPasses, ResultAssembly assembly) {

	/** {@code since}: null to count from the first timed pass. */
	Measuring start(RunSpec spec, boolean prepare, RunObserver observer, ServerCounters.@Nullable Snapshot since,
			Written written, List<RunSpec> all) {
		return new Measuring(spec, prepare, observer, since, written, all);
	}

	/**
	 * One variant from its warm-up to its answer, on a route it holds throughout, its
	 * timed passes sent one at a time.
	 */
	final class Measuring implements AutoCloseable {

		private final RunSpec spec;

		private final BatchRunner runner;

		private final KeySpace keys;

		private final Written written;

		private final TimedPasses.Progress progress;

		private final RouteCache.Lease lease;

		private final double pingMillis;

		private final @Nullable Map<String, Double> nodeRttMillis;

		private final ClusterLayout.@Nullable Spread spread;

		private final BatchRunner.@Nullable ClusterEffect effect;

		private final TimedPasses.Sending sending;

		private final String variant;

		/** Warms the route up and measures its round trip. */
		private Measuring(RunSpec spec, boolean prepare, RunObserver observer, ServerCounters.@Nullable Snapshot since,
				Written written, List<RunSpec> all) {
			this.spec = spec;
			this.runner = Measurements.this.runners.of(spec);
			this.keys = this.runner.keySpace(Measurements.this.keys);
			this.written = written;
			this.progress = new TimedPasses.Progress(spec.sample());
			this.lease = lease(spec);
			try {
				Route route = this.lease.route();
				this.variant = Variant.of(spec, route.flushPolicy()).label();
				Measurements.this.warmUp.warmUp(this.runner, route, spec, observer, this.variant, written);
				this.pingMillis = LoopCeiling.timesItsRoundTrips(all, Measurements.this.runners::of) ? 0
						: WarmUp.measureRtt(route, observer);
				this.nodeRttMillis = NodeRoundTrips.measure(route, WarmUp.RTT_PINGS);
				this.spread = spread(spec, this.keys);
				this.effect = (this.spread != null && route.connector() == Connector.LETTUCE)
						? this.runner.onCluster(spec, this.spread) : null;
				this.sending = Measurements.this.timedPasses.start(spec, this.runner, this.keys, route, this.variant,
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
				return Measurements.this.assembly.result(this.spec, this.runner, this.keys, this.lease.route(),
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
	private RouteCache.Lease lease(RunSpec spec) {
		RunSpec.Senders senders = spec.senders();
		Sharing sharing = switch (spec.mode()) {
			case PIPELINED, PIPELINED_BY_NODE, ASYNC, TRANSACTION, PIPELINED_TRANSACTION, TRANSACTION_HASHTAG ->
				Sharing.POOLED;
			default -> senders.sharing();
		};
		return this.routes.lease(senders.connector(), sharing, spec.flushPolicy(), spec.writes(), spec.addedRtt());
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
					.verify(command, keys, progress.attempted, RunService.setupBatch(spec), spec.valueSize(),
							new Tally(0), RunObserver.NONE, (spec.ttl() == null) ? written : null)
					.verified();
			}
			catch (DataAccessException unanswered) {
				// Redis stopped answering: the report goes out without the read-back.
			}
		}
		return new RunFailedException(spec, batchesDone, tally, verified, keyOf(spec.operation(), this.keys), ex);
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

	static String keyOf(Operation operation, KeySpace keys) {
		String key = operation.key(keys);
		return (key != null) ? key : operation.command().keyed() ? keys.keyPattern() : "(no key)";
	}

}
