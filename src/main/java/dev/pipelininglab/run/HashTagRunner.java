package dev.pipelininglab.run;

import java.util.Locale;

import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The cluster-friendly way to keep one MSET or MGET per batch: keys that share a hash tag
 * ({@code <prefix>:{lab}:key:<i>}) all hash to one slot, so Lettuce sends each multi-key
 * command whole. The price is the layout: one master stores and serves every key while
 * the others idle. The commands are the multi-key ones; only the keys differ.
 */
@Component
class HashTagRunner implements BatchRunner {

	private final MultiKeyRunner multiKey;

	HashTagRunner(MultiKeyRunner multiKey) {
		this.multiKey = multiKey;
	}

	@Override
	public Mode mode() {
		return Mode.MULTI_KEY_HASHTAG;
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		if (topology.kind() != Topology.Kind.CLUSTER) {
			return "hash tags only decide which cluster node holds a key; on " + topology.kind()
					+ " this is the multi-key variant under other key names";
		}
		return spec.operation().command().keyPerItem() ? this.multiKey.unsupported(spec, topology)
				: spec.operation().lacks(mode());
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		this.multiKey.run(pass, from, to, tally);
	}

	@Override
	public KeySpace keySpace(KeySpace demo) {
		return demo.hashTagged();
	}

	@Override
	public @Nullable ClusterEffect onCluster(RunSpec spec, ClusterLayout.Spread spread) {
		String command = MultiKeyRunner.name(spec.operation().command());
		long idle = spread.keysPerNode().size() - spread.mastersUsed();
		return new ClusterEffect(spread.commandsPerSlot(), String.format(Locale.ROOT,
				"Every key carries the hash tag %s, so all %d keys are in slot %s on %s: one %s per batch (%d in all),"
						+ " none split, but that one master stores and serves every key while %d other%s got none.",
				KeySpace.HASH_TAG, spec.count(), spread.slot(), spread.soleNode(), command, spread.commandsPerSlot(),
				idle, (idle == 1) ? "" : "s"));
	}

}
