package dev.pipelininglab.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.pipelininglab.localredis.RedisServerProcess;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;

/**
 * A Redis Cluster of three masters (slots 0-5460, 5461-10922, 10923-16383) with one
 * replica each. The node timeout is 1 s (unless
 * {@value RedisTestServers#DETECTION_PROPERTY} says otherwise) and replicas always
 * consider themselves fit to take over, so failover tests stay quick.
 */
public final class ClusterRedis implements AutoCloseable, SpringRedis {

	private static final int MASTERS = 3;

	private static final String[] SLOT_RANGES = { "0-5460", "5461-10922", "10923-16383" };

	// Redis 6.2 always puts the cluster bus on port + 10000 (7.0 could be told otherwise,
	// 6.2 cannot).
	private static final int BUS_OFFSET = 10_000;

	// Below the kernel's ephemeral range (32768+), bus ports included, so no client
	// socket of this machine is handed one of them; and far below 55535, the highest port
	// that leaves room for the bus.
	private static final int LOWEST_PORT = 10_000;

	private static final int HIGHEST_PORT = 22_000;

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

	private final List<RedisServerProcess> nodes;

	private final List<String> ids;

	private final boolean shared;

	private ClusterRedis(List<RedisServerProcess> nodes, boolean shared) {
		this.nodes = List.copyOf(nodes);
		this.ids = nodes.stream().map((node) -> Topologies.on(node, Jedis::clusterMyId)).toList();
		this.shared = shared;
	}

	static ClusterRedis start(Path binary, boolean shared) {
		List<RedisServerProcess> started = new ArrayList<>();
		Set<Integer> taken = new HashSet<>();
		try {
			for (int i = 0; i < MASTERS * 2; i++) {
				started.add(Topologies.startOnFreePort(
						(port) -> RedisServerProcess.builder(binary, port, Topologies.freshDir("cluster-" + port))
							.args("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
									"--cluster-node-timeout", Long.toString(RedisTestServers.failoverDetectionMillis()),
									"--cluster-replica-validity-factor", "0")
							.args(Topologies.NO_SYNC_DELAY)
							.start(),
						() -> clusterPort(taken)));
			}
			ClusterRedis cluster = new ClusterRedis(started, shared);
			cluster.form();
			return cluster;
		}
		catch (RuntimeException ex) {
			Topologies.stopAll(started);
			throw ex;
		}
	}

	private void form() {
		// Distinct epochs up front, as redis-cli does, instead of waiting for the nodes
		// to resolve the collision.
		for (int i = 0; i < this.nodes.size(); i++) {
			long epoch = i + 1;
			Topologies.on(this.nodes.get(i), (jedis) -> jedis.clusterSetConfigEpoch(epoch));
		}
		RedisServerProcess first = this.nodes.get(0);
		for (RedisServerProcess node : this.nodes.subList(1, this.nodes.size())) {
			Topologies.on(node, (jedis) -> jedis.clusterMeet(first.host(), first.port()));
		}
		for (int m = 0; m < MASTERS; m++) {
			String[] range = SLOT_RANGES[m].split("-");
			int[] slots = IntStream.rangeClosed(Integer.parseInt(range[0]), Integer.parseInt(range[1])).toArray();
			// By name: Redis 6.2 has no ADDSLOTSRANGE.
			Topologies.on(this.nodes.get(m), (jedis) -> jedis.clusterAddSlots(slots));
		}
		for (int m = 0; m < MASTERS; m++) {
			RedisServerProcess replica = this.nodes.get(MASTERS + m);
			String masterId = this.ids.get(m);
			// Fails with "Unknown node" until gossip has introduced the master to the
			// replica.
			Topologies.await("node " + replica.port() + " to replicate " + this.nodes.get(m).port(), READY_TIMEOUT,
					() -> {
						Topologies.on(replica, (jedis) -> jedis.clusterReplicate(masterId));
						return null;
					});
		}
		Topologies.await("the cluster to be ready", READY_TIMEOUT, this::problemWithInitialLayout);
	}

	/**
	 * What still differs from "every node says cluster_state:ok, sees the three masters
	 * with their slots and the three replicas with their masters, and every replica's
	 * link is up"; {@code null} once nothing does.
	 */
	private @Nullable String problemWithInitialLayout() {
		for (int i = 0; i < this.nodes.size(); i++) {
			RedisServerProcess node = this.nodes.get(i);
			String who = "node " + node.port() + ": ";
			try (Jedis jedis = Topologies.jedis(node)) {
				Map<String, String> info = Topologies.parseInfo(jedis.clusterInfo());
				if (!"ok".equals(info.get("cluster_state")) || !"16384".equals(info.get("cluster_slots_ok"))
						|| !"6".equals(info.get("cluster_known_nodes")) || !"3".equals(info.get("cluster_size"))) {
					return who + "cluster info " + info;
				}
				Map<String, NodeLine> view = NodeLine.parse(jedis.clusterNodes());
				for (int m = 0; m < MASTERS; m++) {
					NodeLine master = view.get(this.ids.get(m));
					if (master == null || !master.flags.contains("master") || master.isTroubled()
							|| !master.slots.equals(List.of(SLOT_RANGES[m]))) {
						return who + "sees master " + this.ids.get(m) + " as " + master;
					}
					NodeLine replica = view.get(this.ids.get(MASTERS + m));
					if (replica == null || !replica.flags.contains("slave") || replica.isTroubled()
							|| !replica.masterId.equals(this.ids.get(m))) {
						return who + "sees replica " + this.ids.get(MASTERS + m) + " as " + replica;
					}
				}
				if (i >= MASTERS) {
					String link = Topologies.info(jedis, "replication").get("master_link_status");
					if (!"up".equals(link)) {
						return who + "master_link_status=" + link;
					}
				}
			}
		}
		return null;
	}

	/**
	 * A free port whose bus port (+10000) is free too, neither in {@code taken}, which
	 * gets both.
	 */
	static int clusterPort(Set<Integer> taken) {
		for (int attempt = 0; attempt < 1000; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(LOWEST_PORT, HIGHEST_PORT);
			if (!taken.contains(port) && !taken.contains(port + BUS_OFFSET) && isFree(port)
					&& isFree(port + BUS_OFFSET)) {
				taken.add(port);
				taken.add(port + BUS_OFFSET);
				return port;
			}
		}
		throw new IllegalStateException("No free pair of ports (port, port + " + BUS_OFFSET + ") between " + LOWEST_PORT
				+ " and " + HIGHEST_PORT);
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(Topologies.HOST, port));
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * All six nodes in startup order: the three initial masters, then their replicas in
	 * the same order.
	 */
	public List<RedisServerProcess> nodes() {
		return this.nodes;
	}

	public List<Integer> ports() {
		return this.nodes.stream().map(RedisServerProcess::port).toList();
	}

	/**
	 * The live nodes that are masters now (after a failover that includes promoted
	 * replicas).
	 */
	public List<RedisServerProcess> masters() {
		return nodesWithRole("master");
	}

	/**
	 * The live nodes that are replicas now.
	 */
	public List<RedisServerProcess> replicas() {
		return nodesWithRole("slave");
	}

	private List<RedisServerProcess> nodesWithRole(String role) {
		return this.nodes.stream()
			.filter((node) -> node.isAlive() && !Outages.isPaused(node))
			.filter((node) -> role.equals(Topologies.on(node, Topologies::role)))
			.toList();
	}

	/**
	 * Waits until every live node reports {@code cluster_state:ok} and sees all slots
	 * served by live, healthy masters: after {@code kill()} of a master, until its
	 * replica has taken over and everyone knows.
	 */
	public void awaitHealthy(Duration timeout) {
		Topologies.await("every live node of " + this + " to see all slots served by live masters", timeout, () -> {
			for (RedisServerProcess node : this.nodes) {
				if (node.isAlive() && !Outages.isPaused(node)) {
					String problem = problemWithSlotOwners(node);
					if (problem != null) {
						return "node " + node.port() + ": " + problem;
					}
				}
			}
			return null;
		});
	}

	private @Nullable String problemWithSlotOwners(RedisServerProcess node) {
		try (Jedis jedis = Topologies.jedis(node)) {
			Map<String, String> info = Topologies.parseInfo(jedis.clusterInfo());
			if (!"ok".equals(info.get("cluster_state")) || !"16384".equals(info.get("cluster_slots_ok"))) {
				return "cluster info " + info;
			}
			for (NodeLine line : NodeLine.parse(jedis.clusterNodes()).values()) {
				int index = this.ids.indexOf(line.id);
				if (!line.slots.isEmpty() && (line.isTroubled() || index < 0 || !this.nodes.get(index).isAlive())) {
					return "slots " + line.slots + " are still on " + line;
				}
			}
			return null;
		}
	}

	/**
	 * {@code spring.data.redis.cluster.nodes} listing all six nodes.
	 */
	@Override
	public Map<String, String> springProperties() {
		return Map.of("spring.data.redis.cluster.nodes",
				this.nodes.stream().map((node) -> node.host() + ":" + node.port()).collect(Collectors.joining(",")));
	}

	/**
	 * FLUSHALL on each of this cluster's nodes that is a master now, and nowhere else.
	 */
	public void flushAll() {
		Topologies.flushMasters(this.nodes);
	}

	/**
	 * Hands {@code slot}, which must hold no keys, from the master serving it to
	 * {@code to}, the way a resharding does (importing, migrating, then the new owner
	 * named on the new owner first, the old one next, the other masters last), and waits
	 * until every node says so: clients whose view of the slots is older get MOVED. Only
	 * on a cluster of the test's own.
	 */
	public void moveEmptySlot(int slot, RedisServerProcess to) {
		Topologies.checkOwned(this.shared, "cluster");
		RedisServerProcess from = ownerOf(slot);
		startMigrating(slot, to);
		String target = id(to);
		List<RedisServerProcess> order = new ArrayList<>(List.of(to, from));
		masters().stream().filter((master) -> master != to && master != from).forEach(order::add);
		for (RedisServerProcess node : order) {
			Topologies.on(node, (jedis) -> jedis.clusterSetSlotNode(slot, target));
		}
		// The replicas learn it by gossip; a client reading the slots from one of them
		// before then would still see the old owner.
		Topologies.await("every node to see slot " + slot + " on " + to.port(), READY_TIMEOUT, () -> {
			for (RedisServerProcess node : this.nodes) {
				if (node.isAlive() && !NodeStats.owner(node, slot).equals(to.host() + ":" + to.port())) {
					return "node " + node.port() + " sees it on " + NodeStats.owner(node, slot);
				}
			}
			return null;
		});
	}

	/**
	 * Puts {@code slot} half-way through a resharding to {@code to} (importing there,
	 * migrating on its owner) and leaves it so: its owner answers ASK for every key it
	 * does not hold. Only on a cluster of the test's own.
	 */
	public void startMigrating(int slot, RedisServerProcess to) {
		Topologies.checkOwned(this.shared, "cluster");
		RedisServerProcess from = ownerOf(slot);
		Topologies.on(to, (jedis) -> jedis.clusterSetSlotImporting(slot, id(from)));
		Topologies.on(from, (jedis) -> jedis.clusterSetSlotMigrating(slot, id(to)));
	}

	/** The live master serving {@code slot}, as that master says. */
	public RedisServerProcess ownerOf(int slot) {
		return masters().stream()
			.filter((master) -> NodeStats.slots(master).get(slot))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No master of " + this + " serves slot " + slot));
	}

	private String id(RedisServerProcess node) {
		return this.ids.get(this.nodes.indexOf(node));
	}

	/**
	 * Stops all six nodes of an instance from {@link RedisTestServers#newCluster()}.
	 * @throws IllegalStateException for the shared instance, which other tests still use
	 */
	@Override
	public void close() {
		Topologies.checkOwned(this.shared, "cluster");
		Topologies.stopAll(this.nodes);
	}

	@Override
	public String toString() {
		return "ClusterRedis" + ports();
	}

	/**
	 * One line of CLUSTER NODES:
	 * {@code <id> <ip:port@bus[,hostname]> <flags> <master|-> <ping-sent> <pong-recv>
	 * <config-epoch> <link-state> <slot ranges...>}.
	 */
	private record NodeLine(String id, Set<String> flags, String masterId, List<String> slots) {

		static Map<String, NodeLine> parse(String clusterNodes) {
			Map<String, NodeLine> lines = new HashMap<>();
			for (String line : clusterNodes.split("\r?\n")) {
				String[] fields = line.strip().split(" ");
				if (fields.length >= 8) {
					lines.put(fields[0], new NodeLine(fields[0], Set.of(fields[2].split(",")), fields[3],
							Arrays.asList(fields).subList(8, fields.length)));
				}
			}
			return lines;
		}

		boolean isTroubled() {
			return this.flags.contains("fail") || this.flags.contains("fail?") || this.flags.contains("handshake")
					|| this.flags.contains("noaddr");
		}

	}

}
