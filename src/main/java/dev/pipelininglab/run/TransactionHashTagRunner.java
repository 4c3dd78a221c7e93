package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The cluster's way to run a batch as a transaction: keys that share a hash tag
 * ({@code <prefix>:{lab}:key:<i>}) are all in one slot, so the master of that slot takes
 * MULTI ... EXEC whole. The price is the one of {@code multi-key-hashtag}: one master
 * stores and serves every key while the others idle.
 */
@Component
class TransactionHashTagRunner implements BatchRunner {

	private final TransactionRunner transaction;

	TransactionHashTagRunner(TransactionRunner transaction) {
		this.transaction = transaction;
	}

	@Override
	public Mode mode() {
		return Mode.TRANSACTION_HASHTAG;
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		if (topology.kind() != Topology.Kind.CLUSTER) {
			return "hash tags only decide which cluster node holds a key; on " + topology.kind()
					+ " this is the transaction variant under other key names";
		}
		return this.transaction.unsupported(spec, topology);
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		this.transaction.run(pass, from, to, tally);
	}

	@Override
	public KeySpace keySpace(KeySpace demo) {
		return demo.hashTagged();
	}

}
