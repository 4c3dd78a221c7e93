package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

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

	private final ClusterDiagnosis cluster;

	RedisDiagnosis(LettuceConnectionFactory factory, Connections connections, Topology topology, KeySpace keys) {
		this.factory = factory;
		this.connections = connections;
		this.topology = topology;
		this.probeKey = (keys.prefix() + ":health-probe").getBytes(StandardCharsets.UTF_8);
		this.cluster = new ClusterDiagnosis(connections, topology);
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
			case CLUSTER -> this.cluster.diagnose();
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
		WriteProbe probe = writes();
		if (probe.wrote()) {
			return new Finding(null, "Redis at " + this.topology.nodes().get(0) + " takes writes.", details);
		}
		if (probe.authRefusal() != null) {
			return probe.authFailed(this.topology.nodes().get(0), details);
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
		WriteProbe probe = writes();
		if (probe.wrote()) {
			return new Finding(null, "Master " + address + " of '" + name + "' takes writes.", details);
		}
		if (probe.authRefusal() != null) {
			return probe.authFailed((address != null) ? address : "the master of '" + name + "'", details);
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
	private WriteProbe writes() {
		LettuceConnectionFactory writer = (this.topology.kind() == Topology.Kind.SENTINEL)
				? this.connections.primary().lettuce() : this.factory;
		RuntimeException failure = RedisReplies.probe(() -> {
			try (RedisConnection connection = writer.getConnection()) {
				connection.keyCommands().unlink(this.probeKey);
			}
		});
		return (failure != null) ? WriteProbe.failed(failure) : WriteProbe.OK;
	}

}
