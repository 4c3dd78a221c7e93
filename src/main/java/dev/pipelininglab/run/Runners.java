package dev.pipelininglab.run;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The runner of each mode, and whether a spec can run here: its connector, its mode on
 * this topology, then its pace, in one pass that names the first parameter refusing it.
 */
@Component
class Runners {

	private final Map<Mode, BatchRunner> byMode = new EnumMap<>(Mode.class);

	private final Topology topology;

	Runners(List<BatchRunner> runners, Topology topology) {
		runners.forEach((runner) -> this.byMode.put(runner.mode(), runner));
		this.topology = topology;
	}

	BatchRunner of(RunSpec spec) {
		return Objects.requireNonNull(this.byMode.get(spec.mode()), () -> "no runner for " + spec.mode());
	}

	/** Null when the spec can run here. */
	@Nullable Refusal refusal(RunSpec spec) {
		String connector = connectorUnsupported(spec);
		if (connector != null) {
			return new Refusal("connector", connector);
		}
		String mode = of(spec).unsupported(spec, this.topology);
		if (mode != null) {
			return new Refusal("mode", mode);
		}
		String rate = nothingRuns(spec);
		return (rate != null) ? new Refusal("rate", rate) : null;
	}

	/** A paced run whose first round trip falls due only after its time limit. */
	private @Nullable String nothingRuns(RunSpec spec) {
		Workload workload = spec.workload();
		if (workload.rate() == 0 || workload.duration() == null) {
			return null;
		}
		long firstRoundTrip = Math.min(of(spec).perRoundTrip(spec.batchSize()),
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

	/** Why a spec cannot run, and the parameter (connector, mode or rate) to change. */
	record Refusal(String parameter, String reason) {

		/** A 400 naming the parameter. */
		ProblemException of(RunSpec spec) {
			return new ProblemException(
					ProblemType.INVALID_PARAMETER, spec.operation().label() + " cannot run in mode "
							+ spec.mode().label() + (this.parameter.equals("connector")
									? " with connector " + spec.senders().connector() : "")
							+ ": " + this.reason,
					"parameter", this.parameter);
		}

	}

}
