package dev.pipelininglab.run;

import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * MULTI, the batch and EXEC inside one {@code executePipelined}: a transaction at the
 * round trips of a pipeline; Spring Data Redis drops the {@code QUEUED} answers.
 */
@Component
class PipelinedTransactionRunner extends BatchRunner {

	PipelinedTransactionRunner() {
		super(Mode.PIPELINED_TRANSACTION);
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		return (topology.kind() != Topology.Kind.CLUSTER) ? null
				: "on a cluster, variants transaction and transaction-hashtag already send MULTI, the batch and EXEC"
						+ " in one write to the slot's master; Spring Data Redis runs no MULTI inside a cluster pipeline";
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		TransactionRunner.count(pass, from,
				pass.route().template().executePipelined(TransactionRunner.transaction(pass, from, to, true)), tally);
	}

}
