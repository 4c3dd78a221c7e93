package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongUnaryOperator;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/** Which master serves each of a run's keys on a cluster, as Lettuce routes them. */
@Component
public class ClusterLayout {

	public static final String UNASSIGNED = "unassigned";

	private final @Nullable LettuceConnectionFactory factory;

	private volatile @Nullable Memo last;

	ClusterLayout(LettuceConnectionFactory factory) {
		this.factory = factory.isClusterAware() ? factory : null;
	}

	public record Spread(Map<String, Long> keysPerNode, int slotsTouched, long commandsPerSlot,
			@Nullable Integer slot) {

		public @Nullable String soleNode() {
			List<String> used = this.keysPerNode.entrySet()
				.stream()
				.filter((e) -> e.getValue() > 0)
				.map(Map.Entry::getKey)
				.toList();
			return (used.size() == 1) ? used.get(0) : null;
		}

		public long mastersUsed() {
			return this.keysPerNode.values().stream().filter((count) -> count > 0).count();
		}

	}

	public @Nullable Spread ofKeys(KeySpace keys, long count, int batchSize) {
		return ofKeys(keys, count, batchSize, LongUnaryOperator.identity(), "");
	}

	public @Nullable Spread ofKeys(KeySpace keys, long count, int batchSize, LongUnaryOperator keyIndex, String walk) {
		Owners owners = owners();
		if (owners == null) {
			return null;
		}
		Memo memo = this.last;
		String layout = keys.keyPattern() + walk;
		if (memo != null && memo.matches(layout, count, batchSize, owners)) {
			return memo.spread();
		}
		long[] perNode = new long[owners.names().size() + 1];
		BitSet touched = new BitSet(SlotHash.SLOT_COUNT);
		BitSet batch = new BitSet(SlotHash.SLOT_COUNT);
		long commands = 0;
		for (long i = 0; i < count; i++) {
			if (i % batchSize == 0) {
				commands += batch.cardinality();
				batch.clear();
			}
			int slot = SlotHash.getSlot(keys.keyBytes(keyIndex.applyAsLong(i)));
			touched.set(slot);
			batch.set(slot);
			perNode[owners.of(slot)]++;
		}
		commands += batch.cardinality();
		Integer single = (touched.cardinality() == 1) ? touched.nextSetBit(0) : null;
		Spread spread = new Spread(owners.count(perNode), touched.cardinality(), commands, single);
		this.last = new Memo(layout, count, batchSize, owners, spread);
		return spread;
	}

	public @Nullable Spread ofKey(String key, long count, int batchSize) {
		Owners owners = owners();
		if (owners == null) {
			return null;
		}
		int slot = SlotHash.getSlot(key.getBytes(StandardCharsets.UTF_8));
		long[] perNode = new long[owners.names().size() + 1];
		perNode[owners.of(slot)] = count;
		return new Spread(owners.count(perNode), 1, (count + batchSize - 1) / batchSize, slot);
	}

	private @Nullable Owners owners() {
		if (this.factory == null) {
			return null;
		}
		RedisClusterClient client = (RedisClusterClient) this.factory.getRequiredNativeClient();
		List<String> names = new ArrayList<>();
		int[] owner = new int[SlotHash.SLOT_COUNT];
		Arrays.fill(owner, -1);
		// The first look loads the slot map: a refused password surfaces here, answered
		// like the run's own.
		for (RedisClusterNode node : RedisReplies.translating(client::getPartitions)) {
			if (node.is(NodeFlag.UPSTREAM) && !node.hasNoSlots()) {
				int index = names.size();
				names.add(node.getUri().getHost() + ":" + node.getUri().getPort());
				for (int slot : node.getSlots()) {
					owner[slot] = index;
				}
			}
		}
		return new Owners(names, owner);
	}

	private record Memo(String keyPattern, long count, int batchSize, Owners owners, Spread spread) {

		boolean matches(String keyPattern, long count, int batchSize, Owners owners) {
			return this.keyPattern.equals(keyPattern) && this.count == count && this.batchSize == batchSize
					&& this.owners.names().equals(owners.names()) && Arrays.equals(this.owners.owner(), owners.owner());
		}

	}

	private record Owners(List<String> names, int[] owner) {

		int of(int slot) {
			int index = this.owner[slot];
			return (index >= 0) ? index : this.names.size();
		}

		Map<String, Long> count(long[] perNode) {
			Map<String, Long> counts = new TreeMap<>();
			for (int i = 0; i < this.names.size(); i++) {
				counts.put(this.names.get(i), perNode[i]);
			}
			if (perNode[this.names.size()] > 0) {
				counts.put(UNASSIGNED, perNode[this.names.size()]);
			}
			return counts;
		}

	}

}
