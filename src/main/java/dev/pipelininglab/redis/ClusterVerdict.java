package dev.pipelininglab.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.protocol.ConnectionIntent;
import org.jspecify.annotations.Nullable;

/**
 * A cluster's verdict from every slot map the app routes by: the masters are asked for
 * {@code cluster_state} all at once, within one {@link #PROBE_TIMEOUT}, and each map must
 * give every slot a live master.
 */
final class ClusterVerdict {

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

	private ClusterVerdict() {
	}

	static RedisDiagnosis.Finding of(StatefulRedisClusterConnection<?, ?> cluster, List<Partitions> views) {
		Map<String, CompletableFuture<String>> probes = new TreeMap<>();
		for (Partitions view : views) {
			for (RedisClusterNode node : view) {
				if (node.is(NodeFlag.UPSTREAM) && !node.hasNoSlots()) {
					probes.computeIfAbsent(address(node), (address) -> cluster
						.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort(), ConnectionIntent.WRITE)
						.thenCompose((connection) -> connection.async().clusterInfo())
						.toCompletableFuture());
				}
			}
		}
		long deadline = System.nanoTime() + PROBE_TIMEOUT.toNanos();
		List<String> unreachable = new ArrayList<>();
		Map<String, String> states = new TreeMap<>();
		probes.forEach((address, probe) -> {
			String state = clusterState(probe, deadline);
			if (state == null) {
				unreachable.add(address);
			}
			else {
				states.put(address, state);
			}
		});
		BitSet covered = new BitSet(SlotHash.SLOT_COUNT);
		covered.set(0, SlotHash.SLOT_COUNT);
		for (Partitions view : views) {
			BitSet live = new BitSet(SlotHash.SLOT_COUNT);
			for (RedisClusterNode node : view) {
				if (node.is(NodeFlag.UPSTREAM) && states.containsKey(address(node)) && !node.is(NodeFlag.FAIL)
						&& !node.is(NodeFlag.EVENTUAL_FAIL)) {
					node.getSlots().forEach(live::set);
				}
			}
			covered.and(live);
		}
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("masters", List.copyOf(probes.keySet()));
		details.put("clusterState", states);
		String uncovered = ranges(covered);
		if (!uncovered.isEmpty()) {
			details.put("slotsWithoutLiveMaster", uncovered);
		}
		List<String> down = states.entrySet()
			.stream()
			.filter((entry) -> !"ok".equals(entry.getValue()))
			.map((entry) -> entry.getKey() + " says cluster_state:" + entry.getValue())
			.toList();
		if (!unreachable.isEmpty()) {
			details.put("unreachable", unreachable);
		}
		String missing = ((unreachable.size() > 1) ? "masters " : "master ") + String.join(", ", unreachable);
		// The cluster's own verdict first: once the masters that answer say fail, no
		// replica is taking over.
		if (!down.isEmpty()) {
			return new RedisDiagnosis.Finding(RedisDiagnosis.Cause.CLUSTER_DOWN,
					"The Redis cluster cannot take every write: " + String.join("; ", down)
							+ (unreachable.isEmpty() ? ""
									: "; the " + missing
											+ ((unreachable.size() > 1) ? " do not answer" : " does not answer"))
							+ (uncovered.isEmpty() ? "" : "; slots " + uncovered + " have no live master") + ".",
					details);
		}
		if (!unreachable.isEmpty()) {
			return new RedisDiagnosis.Finding(RedisDiagnosis.Cause.NODE_UNREACHABLE, "Cannot reach the Redis cluster "
					+ missing + " that the app routes slots to"
					+ (uncovered.isEmpty() ? "" : " (slots " + uncovered + ")")
					+ "; if it has a replica, the replica takes over after cluster-node-timeout and the app follows"
					+ " on its next topology refresh.", details);
		}
		if (!uncovered.isEmpty()) {
			return new RedisDiagnosis.Finding(RedisDiagnosis.Cause.CLUSTER_DOWN,
					"The Redis cluster cannot take every write: slots " + uncovered
							+ " have no live master in the app's view.",
					details);
		}
		return new RedisDiagnosis.Finding(null, "Every slot has a live master that takes writes.", details);
	}

	private static String address(RedisClusterNode node) {
		return node.getUri().getHost() + ":" + node.getUri().getPort();
	}

	private static @Nullable String clusterState(CompletableFuture<String> info, long deadline) {
		try {
			String reply = info.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			return NodeInfo.fields(reply).getOrDefault("cluster_state", "unknown");
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	private static String ranges(BitSet covered) {
		List<String> ranges = new ArrayList<>();
		int from = covered.nextClearBit(0);
		while (from < SlotHash.SLOT_COUNT) {
			int next = covered.nextSetBit(from);
			int to = (next >= 0) ? next : SlotHash.SLOT_COUNT;
			ranges.add((to - 1 == from) ? Integer.toString(from) : from + "-" + (to - 1));
			from = covered.nextClearBit(to);
		}
		return String.join(", ", ranges);
	}

}
