package dev.pipelininglab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.pipelininglab.localredis.RedisServerProcess;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;

/**
 * One master, one replica and three sentinels (quorum 2) watching them as
 * {@value #MASTER_NAME}, tuned to notice a dead master after 1 s (unless
 * {@value RedisTestServers#DETECTION_PROPERTY} says otherwise) so failover tests stay
 * quick.
 */
public final class SentinelRedis implements AutoCloseable, SpringRedis {

	public static final String MASTER_NAME = "mymaster";

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

	private final RedisServerProcess master;

	private final RedisServerProcess replica;

	private final List<RedisServerProcess> sentinels;

	private final boolean shared;

	private SentinelRedis(RedisServerProcess master, RedisServerProcess replica, List<RedisServerProcess> sentinels,
			boolean shared) {
		this.master = master;
		this.replica = replica;
		this.sentinels = List.copyOf(sentinels);
		this.shared = shared;
	}

	static SentinelRedis start(Path binary, boolean shared) {
		List<RedisServerProcess> started = new ArrayList<>();
		try {
			RedisServerProcess master = Topologies.startOnFreePort((port) -> RedisServerProcess.start(binary, port,
					Topologies.freshDir("sentinel-master-" + port), Topologies.NO_SYNC_DELAY),
					RedisServerProcess::freePort);
			started.add(master);
			RedisServerProcess replica = Topologies.startOnFreePort(
					(port) -> RedisServerProcess.builder(binary, port, Topologies.freshDir("sentinel-replica-" + port))
						.args(Topologies.NO_SYNC_DELAY)
						.args("--replicaof", master.host(), Integer.toString(master.port()))
						.start(),
					RedisServerProcess::freePort);
			started.add(replica);
			// Sentinels learn about replicas from the master's INFO, which they ask for
			// every 10 s; a replica already connected when they start is in their very
			// first INFO.
			Topologies.await("the replica to sync with the master", READY_TIMEOUT,
					() -> replicaInSync(master, replica));
			List<RedisServerProcess> sentinels = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				RedisServerProcess sentinel = Topologies.startOnFreePort((port) -> startSentinel(binary, port, master),
						RedisServerProcess::freePort);
				started.add(sentinel);
				sentinels.add(sentinel);
			}
			SentinelRedis topology = new SentinelRedis(master, replica, sentinels, shared);
			Topologies.await("the sentinels to know the master, the replica and each other", READY_TIMEOUT,
					topology::sentinelsReady);
			return topology;
		}
		catch (RuntimeException ex) {
			Topologies.stopAll(started);
			throw ex;
		}
	}

	private static RedisServerProcess startSentinel(Path binary, int port, RedisServerProcess master) {
		Path dir = Topologies.freshDir("sentinel-" + port);
		// Sentinel rewrites its config file (ids, discovered peers and replicas), so each
		// needs its own writable one.
		Path config = dir.resolve("sentinel.conf");
		String name = MASTER_NAME;
		try {
			Files.writeString(config,
					String.join("\n", "sentinel monitor " + name + " " + master.host() + " " + master.port() + " 2",
							"sentinel down-after-milliseconds " + name + " "
									+ RedisTestServers.failoverDetectionMillis(),
							"sentinel failover-timeout " + name + " 5000", "sentinel parallel-syncs " + name + " 1",
							""));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return RedisServerProcess.builder(binary, port, dir).configFile(config).args("--sentinel").start();
	}

	private static @Nullable String replicaInSync(RedisServerProcess master, RedisServerProcess replica) {
		Map<String, String> replicaInfo = Topologies.on(replica, (jedis) -> Topologies.info(jedis, "replication"));
		Map<String, String> masterInfo = Topologies.on(master, (jedis) -> Topologies.info(jedis, "replication"));
		if (!"up".equals(replicaInfo.get("master_link_status"))) {
			return "replica " + replica.port() + " master_link_status=" + replicaInfo.get("master_link_status");
		}
		String slave0 = masterInfo.getOrDefault("slave0", "");
		if (!slave0.contains("port=" + replica.port()) || !slave0.contains("state=online")) {
			return "master " + master.port() + " slave0=" + slave0;
		}
		return null;
	}

	private @Nullable String sentinelsReady() {
		for (RedisServerProcess sentinel : this.sentinels) {
			try (Jedis jedis = Topologies.jedis(sentinel)) {
				String who = "sentinel " + sentinel.port() + ": ";
				List<String> address = jedis.sentinelGetMasterAddrByName(MASTER_NAME);
				if (address == null || !String.valueOf(this.master.port()).equals(address.get(1))) {
					return who + "master address " + address;
				}
				Map<String, String> master = jedis.sentinelMaster(MASTER_NAME);
				if (!"master".equals(master.get("flags")) || !"2".equals(master.get("num-other-sentinels"))) {
					return who + "master flags=" + master.get("flags") + ", num-other-sentinels="
							+ master.get("num-other-sentinels");
				}
				List<Map<String, String>> replicas = jedis.sentinelReplicas(MASTER_NAME);
				if (replicas.size() != 1 || !String.valueOf(this.replica.port()).equals(replicas.get(0).get("port"))
						|| !"slave".equals(replicas.get(0).get("flags"))
						|| !"ok".equals(replicas.get(0).get("master-link-status"))) {
					return who + "replicas " + replicas;
				}
			}
		}
		return null;
	}

	/**
	 * The server that was the master at startup; after a failover see
	 * {@link #currentMaster()}.
	 */
	public RedisServerProcess master() {
		return this.master;
	}

	/**
	 * The server that was the replica at startup.
	 */
	public RedisServerProcess replica() {
		return this.replica;
	}

	/**
	 * Master and replica, the servers that hold data.
	 */
	public List<RedisServerProcess> dataNodes() {
		return List.of(this.master, this.replica);
	}

	public List<Integer> sentinelPorts() {
		return this.sentinels.stream().map(RedisServerProcess::port).toList();
	}

	/**
	 * The data node the first answering sentinel names as master now.
	 */
	public RedisServerProcess currentMaster() {
		for (RedisServerProcess sentinel : this.sentinels) {
			if (!sentinel.isAlive() || Outages.isPaused(sentinel)) {
				continue;
			}
			List<String> address = Topologies.on(sentinel, (jedis) -> jedis.sentinelGetMasterAddrByName(MASTER_NAME));
			int port = Integer.parseInt(address.get(1));
			return dataNodes().stream()
				.filter((node) -> node.port() == port)
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("Sentinels name " + address + ", not one of " + this));
		}
		throw new IllegalStateException("No live sentinel in " + this);
	}

	/**
	 * Waits until every live sentinel has marked a replica subjectively down (its
	 * {@code +sdown slave} event), e.g. after {@code Outages.kill(replica())}.
	 */
	public void awaitReplicaDown(Duration timeout) {
		Topologies.await("the sentinels marking the replica down", timeout, () -> {
			for (RedisServerProcess sentinel : this.sentinels) {
				if (sentinel.isAlive() && !Outages.isPaused(sentinel)
						&& !Topologies.on(sentinel, (jedis) -> jedis.sentinelReplicas(MASTER_NAME).toString())
							.contains("s_down")) {
					return "sentinel " + sentinel.port() + " has not marked the replica down";
				}
			}
			return null;
		});
	}

	/**
	 * Waits until every live sentinel names a master other than {@code oldMaster} and
	 * that master answers as one, e.g. after {@code Outages.kill(oldMaster)}.
	 * @return the new master
	 */
	public RedisServerProcess awaitNewMaster(RedisServerProcess oldMaster, Duration timeout) {
		Topologies.await("a failover away from " + oldMaster.port(), timeout, () -> {
			for (RedisServerProcess sentinel : this.sentinels) {
				if (sentinel.isAlive() && !Outages.isPaused(sentinel)) {
					List<String> address = Topologies.on(sentinel,
							(jedis) -> jedis.sentinelGetMasterAddrByName(MASTER_NAME));
					if (String.valueOf(oldMaster.port()).equals(address.get(1))) {
						return "sentinel " + sentinel.port() + " still names " + address;
					}
				}
			}
			RedisServerProcess master = currentMaster();
			String role = Topologies.on(master, Topologies::role);
			return "master".equals(role) ? null : master.port() + " has role " + role;
		});
		return currentMaster();
	}

	/**
	 * Stops the three sentinels of an instance from
	 * {@link RedisTestServers#newSentinel()} (the data nodes keep running).
	 */
	public void stopSentinels() {
		Topologies.checkOwned(this.shared, "sentinel topology");
		Topologies.stopAll(this.sentinels);
	}

	/**
	 * {@code spring.data.redis.sentinel.master} and {@code .nodes} for this topology.
	 */
	@Override
	public Map<String, String> springProperties() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spring.data.redis.sentinel.master", MASTER_NAME);
		properties.put("spring.data.redis.sentinel.nodes",
				this.sentinels.stream()
					.map((sentinel) -> sentinel.host() + ":" + sentinel.port())
					.collect(Collectors.joining(",")));
		return Collections.unmodifiableMap(properties);
	}

	/**
	 * FLUSHALL on whichever of this topology's data nodes is master now, and nowhere
	 * else.
	 */
	public void flushAll() {
		Topologies.flushMasters(dataNodes());
	}

	/**
	 * Stops all five processes of an instance from
	 * {@link RedisTestServers#newSentinel()}.
	 * @throws IllegalStateException for the shared instance, which other tests still use
	 */
	@Override
	public void close() {
		Topologies.checkOwned(this.shared, "sentinel topology");
		List<RedisServerProcess> all = new ArrayList<>(this.sentinels);
		all.addAll(dataNodes());
		Topologies.stopAll(all);
	}

	@Override
	public String toString() {
		return "SentinelRedis[master " + this.master.port() + ", replica " + this.replica.port() + ", sentinels "
				+ sentinelPorts() + "]";
	}

}
