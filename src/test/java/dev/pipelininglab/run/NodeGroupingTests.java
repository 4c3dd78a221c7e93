package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a batch is grouped by master, on views of the slots built here (no Redis needed:
 * nothing is sent).
 */
class NodeGroupingTests {

	@Test
	void twoNodeObjectsNamingOneMasterMakeOneGroupAndEveryItemIsInAGroup() {
		// What a topology refresh in the middle of a batch leaves: the same master as the
		// node object of the old view and of the new one.
		Partitions partitions = new Partitions();
		partitions.addPartition(master("old-view", 7000, 0, 8191));
		partitions.addPartition(master("new-view", 7000, 8192, 16383));
		partitions.addPartition(master("other", 7001, -1, -1));
		partitions.updateCache();
		byte[][] keys = IntStream.range(0, 1000)
			.mapToObj((i) -> ("lab:key:" + i).getBytes(StandardCharsets.UTF_8))
			.toArray(byte[][]::new);
		assertThat(IntStream.range(0, 1000).map((i) -> SlotHash.getSlot(keys[i]))).anyMatch((slot) -> slot < 8192)
			.anyMatch((slot) -> slot >= 8192);

		Map<String, NodeBatch.Group> groups = NodeGroupedRunner.byMaster(partitions, keys);

		assertThat(groups).containsOnlyKeys("127.0.0.1:7000");
		NodeBatch.Group group = groups.get("127.0.0.1:7000");
		assertThat(group.size).isEqualTo(1000);
		// In command order, each item once.
		assertThat(IntStream.range(0, group.size).map((k) -> group.items[k]))
			.containsExactlyElementsOf(IntStream.range(0, 1000).boxed().toList());
	}

	private static RedisClusterNode master(String id, int port, int from, int to) {
		List<Integer> slots = (from < 0) ? List.of() : IntStream.rangeClosed(from, to).boxed().toList();
		return new RedisClusterNode(RedisURI.create("127.0.0.1", port), id, true, null, 0, 0, 1, slots,
				Set.of(NodeFlag.UPSTREAM));
	}

}
