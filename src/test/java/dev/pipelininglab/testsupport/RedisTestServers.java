package dev.pipelininglab.testsupport;

import java.nio.file.Path;

import dev.pipelininglab.localredis.RedisServerBinary;
import org.jspecify.annotations.Nullable;

/**
 * Real Redis topologies on free loopback ports, started by the tests themselves with the
 * same binary resolution as the application ({@code redis-server} on the PATH, else the
 * one bundled in embedded-redis).
 * <p>
 * The shared instances ({@link #standalone()}, {@link #sentinel()}, {@link #cluster()})
 * start on first use and stop when the JVM exits, after Spring has closed the cached test
 * contexts that use them (no reconnect attempts to a stopped server on the way out);
 * tests share them, so they may write keys (and {@code flushAll()} them) but must not
 * kill, pause or reconfigure their servers. Tests that do take a fresh instance from a
 * {@code new...()} method and close it.
 * <p>
 * {@code -Dlab.test.redis-binary=/path/to/redis-server} runs everything on another
 * binary; {@code -Dlab.test.redis-binary=bundled} on the one from embedded-redis (Redis
 * 6.2).
 */
public final class RedisTestServers {

	public static final String BINARY_PROPERTY = "lab.test.redis-binary";

	/**
	 * How long a master may be silent before it counts as failed: the sentinels'
	 * {@code down-after-milliseconds} and the cluster's {@code cluster-node-timeout}.
	 * 1000 ms keeps the failover tests quick;
	 * {@code -Dlab.test.failover-detection-ms=5000} runs them with the settings of
	 * docker/ and scripts/redis-topology.sh, to measure what users get
	 * (docs/topologies.md, "Failover").
	 */
	public static final String DETECTION_PROPERTY = "lab.test.failover-detection-ms";

	private static @Nullable Path binary;

	private static @Nullable StandaloneRedis standalone;

	private static @Nullable SentinelRedis sentinel;

	private static @Nullable ClusterRedis cluster;

	private RedisTestServers() {
	}

	/**
	 * The redis-server these servers run: {@value #BINARY_PROPERTY} if set, else the
	 * application's resolution.
	 */
	public static synchronized Path binary() {
		if (binary == null) {
			String configured = System.getProperty(BINARY_PROPERTY);
			binary = "bundled".equals(configured) ? RedisServerBinary.bundled() : RedisServerBinary.resolve(configured);
		}
		return binary;
	}

	/** {@value #DETECTION_PROPERTY}, 1000 ms unless set. */
	public static long failoverDetectionMillis() {
		return Long.getLong(DETECTION_PROPERTY, 1000);
	}

	public static synchronized StandaloneRedis standalone() {
		if (standalone == null) {
			standalone = StandaloneRedis.start(binary(), true);
		}
		return standalone;
	}

	/**
	 * Master, replica and three sentinels, shared (about 3 s to start).
	 */
	public static synchronized SentinelRedis sentinel() {
		if (sentinel == null) {
			sentinel = SentinelRedis.start(binary(), true);
		}
		return sentinel;
	}

	/**
	 * Three masters with a replica each, shared (a few seconds to start).
	 */
	public static synchronized ClusterRedis cluster() {
		if (cluster == null) {
			cluster = ClusterRedis.start(binary(), true);
		}
		return cluster;
	}

	/**
	 * A standalone server of the caller's own, to close when done.
	 */
	public static StandaloneRedis newStandalone() {
		return newStandalone(binary());
	}

	public static StandaloneRedis newStandalone(Path binary) {
		return StandaloneRedis.start(binary, false);
	}

	/**
	 * A sentinel topology of the caller's own (e.g. to kill its master), to close when
	 * done.
	 */
	public static SentinelRedis newSentinel() {
		return newSentinel(binary());
	}

	public static SentinelRedis newSentinel(Path binary) {
		return SentinelRedis.start(binary, false);
	}

	/**
	 * A cluster of the caller's own (e.g. to kill a master), to close when done.
	 */
	public static ClusterRedis newCluster() {
		return newCluster(binary());
	}

	public static ClusterRedis newCluster(Path binary) {
		return ClusterRedis.start(binary, false);
	}

}
