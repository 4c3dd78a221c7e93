package dev.pipelininglab.run;

import java.util.Locale;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/** The cluster-friendly way to keep one MSET or MGET per batch: no split by slot. */
@Component
class HashTagRunner extends BatchRunner.HashTagged {

	HashTagRunner(MultiKeyRunner multiKey) {
		super(Mode.MULTI_KEY_HASHTAG, multiKey);
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		return (topology.kind() != Topology.Kind.CLUSTER || spec.operation().command().keyPerItem())
				? super.unsupported(spec, topology) : spec.operation().lacks(mode());
	}

	@Override
	public ClusterEffect onCluster(RunSpec spec, ClusterLayout.Spread spread) {
		String command = MultiKeyRunner.name(spec.operation().command());
		long idle = spread.keysPerNode().size() - spread.mastersUsed();
		return new ClusterEffect(spread.commandsPerSlot(), String.format(Locale.ROOT,
				"Every key carries the hash tag %s, so all %d keys are in slot %s on %s: one %s per batch (%d in all),"
						+ " none split, but that one master stores and serves every key while %d other%s got none.",
				KeySpace.HASH_TAG, spec.count(), spread.slot(), spread.soleNode(), command, spread.commandsPerSlot(),
				idle, (idle == 1) ? "" : "s"));
	}

}
