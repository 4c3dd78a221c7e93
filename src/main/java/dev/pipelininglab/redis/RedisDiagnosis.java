package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.RedisServer;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Whether the lab can write right now, and if not, what is missing: the one answer the
 * health contributor and the 503 problems share.
 * <ul>
 * <li>Standalone and sentinel: a write (UNLINK of a probe key under the prefix) on the
 * connections runs use, so it goes where their writes go. A reply at all is the proof; an
 * error (not connected, READONLY from a demoted master) is the failure. On sentinel the
 * sentinels are asked too, which master they name, so the answer says which address is
 * missing, or that the sentinels themselves are.</li>
 * <li>Cluster: Lettuce's view of the slots (what it routes by) must cover all 16384 slots
 * with masters not flagged as failed, every such master must answer, and each must say
 * {@code cluster_state:ok} (a node that lost the majority answers CLUSTERDOWN to every
 * command); that holds for the view of each route runs use by default, shared and pooled,
 * as each follows a promotion on its own refresh.</li>
 * </ul>
 * The cluster's node probes are bounded by {@link #PROBE_TIMEOUT} together, so a
 * diagnosis never takes the command timeout per node.
 */
@Component
public class RedisDiagnosis {

	/** How long the cluster's nodes may take, all together, to answer their probes. */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

	private final LettuceConnectionFactory factory;

	private final Topology topology;

	private final Connections connections;

	private final byte[] probeKey;

	RedisDiagnosis(LettuceConnectionFactory factory, Connections connections, Topology topology, KeySpace keys) {
		this.factory = factory;
		this.connections = connections;
		this.topology = topology;
		this.probeKey = (keys.prefix() + ":health-probe").getBytes(StandardCharsets.UTF_8);
	}

	/** Why the lab cannot write. */
	public enum Cause {

		/** Standalone: the one server does not answer (or refuses writes). */
		REDIS_UNREACHABLE,

		/** Sentinel: the sentinels answer, the master they name does not take writes. */
		MASTER_UNREACHABLE,

		/** Sentinel: none of the configured sentinels answers. */
		SENTINELS_UNREACHABLE,

		/** Cluster: a node says the cluster is down, or slots have no live master. */
		CLUSTER_DOWN,

		/** Cluster: a master serving slots does not answer. */
		NODE_UNREACHABLE,

		/** Redis answers, but refuses the configured credentials (WRONGPASS, NOAUTH). */
		AUTH_FAILED

	}

	/**
	 * @param cause null when the lab can write
	 * @param summary one sentence for people, naming addresses
	 * @param details what the health contributor shows: addresses, states, slot ranges;
	 * never exception texts
	 */
	public record Finding(@Nullable Cause cause, String summary, Map<String, Object> details) {

		public boolean writable() {
			return this.cause == null;
		}

	}

	public Finding diagnose() {
		return switch (this.topology.kind()) {
			case STANDALONE -> standalone();
			case SENTINEL -> sentinel();
			case CLUSTER -> cluster();
		};
	}

	/**
	 * Sentinel: the master the sentinels name now ({@code host:port}), or null when none
	 * answers; null off sentinel.
	 */
	public @Nullable String sentinelMaster() {
		if (this.topology.kind() != Topology.Kind.SENTINEL) {
			return null;
		}
		RedisServer master = namedMaster();
		return (master != null) ? master.getHost() + ":" + master.getPort() : null;
	}

	private Finding standalone() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("redis", this.topology.nodes().get(0));
		Probe probe = writes();
		if (probe.wrote()) {
			return new Finding(null, "Redis at " + this.topology.nodes().get(0) + " takes writes.", details);
		}
		if (probe.authRefusal() != null) {
			return authFailed(this.topology.nodes().get(0), probe, details);
		}
		return new Finding(Cause.REDIS_UNREACHABLE,
				"Redis at " + this.topology.nodes().get(0)
						+ " does not take writes (unreachable or read-only; the app's connection says: "
						+ probe.failure() + ").",
				details);
	}

	private Finding sentinel() {
		Map<String, Object> details = new LinkedHashMap<>();
		String name = Topology.masterName(this.factory);
		details.put("masterName", name);
		details.put("sentinels", this.topology.nodes());
		RedisServer named = namedMaster();
		String address = null;
		if (named != null) {
			address = named.getHost() + ":" + named.getPort();
			details.put("master", address);
			details.put("masterFlags", named.getFlags());
		}
		Probe probe = writes();
		if (probe.wrote()) {
			return new Finding(null, "Master " + address + " of '" + name + "' takes writes.", details);
		}
		if (probe.authRefusal() != null) {
			return authFailed((address != null) ? address : "the master of '" + name + "'", probe, details);
		}
		if (named == null) {
			return new Finding(Cause.SENTINELS_UNREACHABLE,
					"None of the Redis sentinels at " + String.join(", ", this.topology.nodes())
							+ " answers, so the master of '" + name
							+ "' cannot be found (and the master the app was using does not take writes either).",
					details);
		}
		String flags = named.getFlags();
		boolean seenDown = flags != null && (flags.contains("s_down") || flags.contains("o_down"));
		// Before the sentinels see the master down there is no failover to follow yet:
		// say what the client saw and what would happen next, not that a new master is
		// coming.
		return new Finding(Cause.MASTER_UNREACHABLE,
				"Cannot write to the Redis master of '" + name + "' (the app's connection says: " + probe.failure()
						+ "): the sentinels name " + address
						+ (seenDown ? " and see it down (" + flags + "); a failover follows once they agree."
								: " (flags " + flags + ") and do not see it down yet; should it stay unreachable past"
										+ " down-after-milliseconds they promote a replica, and the app follows it."),
				details);
	}

	private @Nullable RedisServer namedMaster() {
		String name = Topology.masterName(this.factory);
		try (RedisSentinelConnection sentinels = this.factory.getSentinelConnection()) {
			for (RedisServer master : sentinels.masters()) {
				if (name.equals(master.getName())) {
					return master;
				}
			}
			return null;
		}
		catch (Exception ex) {
			// No sentinel answered (or the answer could not be read): the finding says
			// so.
			return null;
		}
	}

	/**
	 * An UNLINK of the probe key, routed to the master like every write, and harmless
	 * (the key is the lab's own and never holds data). On sentinel it goes through the
	 * connections runs use by default: every sentinel-aware connection follows a failover
	 * on its own sentinel subscription, and the pooled ones refresh at the same moment as
	 * the shared one (docs/topologies.md, "Why the app waits 5 s after a sentinel
	 * failover"), so the shared one answers for them without borrowing from a pool a run
	 * may have emptied. Elsewhere through the app's own factory, whose connection is warm
	 * (the route's first connection can take longer than the health timeout on a cold,
	 * busy machine).
	 */
	private Probe writes() {
		LettuceConnectionFactory writer = (this.topology.kind() == Topology.Kind.SENTINEL)
				? this.connections.primary().lettuce() : this.factory;
		RuntimeException failure = RedisReplies.probe(() -> {
			try (RedisConnection connection = writer.getConnection()) {
				connection.keyCommands().unlink(this.probeKey);
			}
		});
		return (failure != null) ? Probe.failed(failure) : Probe.OK;
	}

	private static Finding authFailed(String address, Probe probe, Map<String, Object> details) {
		return new Finding(Cause.AUTH_FAILED, "Redis at " + address + " refuses the app's credentials ("
				+ probe.authRefusal() + "); check spring.data.redis.username and password.", details);
	}

	/**
	 * What the write probe saw.
	 *
	 * @param failure the innermost cause's message, or null when the write went through
	 * @param authRefusal Redis' own words when it refused the credentials
	 */
	private record Probe(@Nullable String failure, @Nullable String authRefusal) {

		static final Probe OK = new Probe(null, null);

		static Probe failed(Throwable failure) {
			Throwable innermost = failure;
			while (innermost.getCause() != null && innermost.getCause() != innermost) {
				innermost = innermost.getCause();
			}
			String message = (innermost.getMessage() != null) ? innermost.getMessage()
					: innermost.getClass().getSimpleName();
			return new Probe(message, RedisReplies.authRefusal(failure));
		}

		boolean wrote() {
			return this.failure == null;
		}

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
	 * connection's node connections, all at once within one {@link #PROBE_TIMEOUT}.
	 */
	private Finding cluster() {
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
			Probe probe = Probe.failed(ex);
			if (probe.authRefusal() != null) {
				return authFailed(String.join(", ", this.topology.nodes()), probe,
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
		String missing = (unreachable.size() > 1) ? "masters " + String.join(", ", unreachable)
				: "master " + String.join(", ", unreachable);
		// The cluster's own verdict comes first: once the masters that answer say
		// cluster_state:fail, no replica is taking over (a master and its replicas are
		// all
		// gone, or the majority is), whatever else is unreachable.
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
