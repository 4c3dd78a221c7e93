package dev.pipelininglab.redis;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.pipelininglab.redis.RedisDiagnosis.Cause;
import dev.pipelininglab.redis.RedisDiagnosis.Finding;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.protocol.ConnectionIntent;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;

/**
 * Whether a Redis cluster can take every write, as the routes runs use see it: slot
 * coverage by live masters and each master's {@code cluster_state}.
 */
class ClusterDiagnosis {

	private final Connections connections;

	private final Topology topology;

	ClusterDiagnosis(Connections connections, Topology topology) {
		this.connections = connections;
		this.topology = topology;
	}

	/**
	 * The slot maps runs route by: the shared route's (template calls) and the pooled
	 * route's ({@code executePipelined} borrows from its pool). Each route has a client
	 * of its own that follows a promotion on its own periodic refresh, up to a second
	 * apart, so the lab can write only once both maps send every slot to a live master.
	 * The pooled map is read from its client, not from a borrowed connection, so a run
	 * that holds the whole pool cannot make the probe wait (reading it the first time
	 * loads it and starts the client's refresh, as a first connection would). Every
	 * master in either map is asked for its {@code cluster_state} once, over the shared
	 * connection's node connections, all at once within one
	 * {@link #RedisDiagnosis.PROBE_TIMEOUT}.
	 */
	Finding diagnose() {
		Optional<Connections.Lease> pooled = pooledLease();
		try (RedisConnection shared = this.connections.primary().factory().getConnection()) {
			if (!(shared.getNativeConnection() instanceof RedisAdvancedClusterAsyncCommands<?, ?> commands)) {
				throw new IllegalStateException("Not a cluster connection: " + shared.getNativeConnection());
			}
			StatefulRedisClusterConnection<?, ?> cluster = commands.getStatefulConnection();
			List<Partitions> views = new ArrayList<>(List.of(cluster.getPartitions()));
			if (pooled.isPresent()) {
				if (!(pooled.get().route().lettuce().getNativeClient() instanceof RedisClusterClient pooledClient)) {
					throw new IllegalStateException(
							"Not a cluster client: " + pooled.get().route().lettuce().getNativeClient());
				}
				views.add(pooledClient.getPartitions());
			}
			return cluster(cluster, views);
		}
		catch (RuntimeException ex) {
			WriteProbe probe = WriteProbe.failed(ex);
			if (probe.authRefusal() != null) {
				return probe.authFailed(String.join(", ", this.topology.nodes()),
						Map.of("nodes", this.topology.nodes()));
			}
			return new Finding(Cause.NODE_UNREACHABLE,
					"Cannot reach any of the Redis cluster nodes at " + String.join(", ", this.topology.nodes()) + ".",
					Map.of("nodes", this.topology.nodes()));
		}
		finally {
			pooled.ifPresent(Connections.Lease::close);
		}
	}

	/**
	 * The pooled route pipelines run on by default, held while its slot map is read so it
	 * cannot be closed meanwhile. Only once a run has built it: until then no run routes
	 * by its map, and building it here would make a probe of a stalled cluster wait for a
	 * new client's first slot map.
	 */
	private Optional<Connections.Lease> pooledLease() {
		return this.connections.leaseIfKept(Connector.LETTUCE, Sharing.POOLED, this.connections.defaultPolicy());
	}

	private Finding cluster(StatefulRedisClusterConnection<?, ?> cluster, List<Partitions> views) {
		// By address, so the details list the masters in the same order on every call.
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
		long deadline = System.nanoTime() + RedisDiagnosis.PROBE_TIMEOUT.toNanos();
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
		String missing = (unreachable.size() > 1) ? "masters " + String.join(", ", unreachable)
				: "master " + String.join(", ", unreachable);
		// The cluster's own verdict comes first: once the masters that answer say
		// cluster_state:fail, no replica is taking over (a master and its replicas are
		// all gone, or the majority is), whatever else is unreachable.
		if (!down.isEmpty()) {
			return new Finding(Cause.CLUSTER_DOWN, "The Redis cluster cannot take every write: "
					+ String.join("; ", down)
					+ (unreachable.isEmpty() ? ""
							: "; the " + missing + ((unreachable.size() > 1) ? " do not answer" : " does not answer"))
					+ (uncovered.isEmpty() ? "" : "; slots " + uncovered + " have no live master") + ".", details);
		}
		if (!unreachable.isEmpty()) {
			return new Finding(Cause.NODE_UNREACHABLE, "Cannot reach the Redis cluster " + missing
					+ " that the app routes slots to" + (uncovered.isEmpty() ? "" : " (slots " + uncovered + ")")
					+ "; if it has a replica, the replica takes over after cluster-node-timeout and the app follows"
					+ " on its next topology refresh.", details);
		}
		if (!uncovered.isEmpty()) {
			return new Finding(Cause.CLUSTER_DOWN, "The Redis cluster cannot take every write: slots " + uncovered
					+ " have no live master in the app's view.", details);
		}
		return new Finding(null, "Every slot has a live master that takes writes.", details);
	}

	private static String address(RedisClusterNode node) {
		return node.getUri().getHost() + ":" + node.getUri().getPort();
	}

	/**
	 * The node's {@code cluster_state}, or null when it does not answer by the deadline
	 * ({@link System#nanoTime()}).
	 */
	private static @Nullable String clusterState(CompletableFuture<String> info, long deadline) {
		try {
			String reply = info.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			for (String line : reply.split("\r?\n")) {
				if (line.startsWith("cluster_state:")) {
					return line.substring("cluster_state:".length()).strip();
				}
			}
			return "unknown";
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	/** E.g. {@code 0-5460} or {@code 0-10, 12}; empty when every slot is set. */
	private static String ranges(BitSet covered) {
		List<String> ranges = new ArrayList<>();
		int from = covered.nextClearBit(0);
		while (from < SlotHash.SLOT_COUNT) {
			int to = Math.min(covered.nextSetBit(from), SlotHash.SLOT_COUNT);
			if (to < 0) {
				to = SlotHash.SLOT_COUNT;
			}
			ranges.add((to - 1 == from) ? Integer.toString(from) : from + "-" + (to - 1));
			from = covered.nextClearBit(to);
		}
		return String.join(", ", ranges);
	}

}
