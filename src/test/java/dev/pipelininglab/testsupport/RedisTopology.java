package dev.pipelininglab.testsupport;

import java.util.function.Supplier;

/**
 * The kinds of Redis the tests run against, each as the shared instance and as a fresh
 * one.
 */
public enum RedisTopology {

	STANDALONE(RedisTestServers::standalone, RedisTestServers::newStandalone),

	SENTINEL(RedisTestServers::sentinel, RedisTestServers::newSentinel),

	CLUSTER(RedisTestServers::cluster, RedisTestServers::newCluster);

	private final Supplier<SpringRedis> shared;

	private final Supplier<SpringRedis> fresh;

	RedisTopology(Supplier<SpringRedis> shared, Supplier<SpringRedis> fresh) {
		this.shared = shared;
		this.fresh = fresh;
	}

	SpringRedis shared() {
		return this.shared.get();
	}

	SpringRedis fresh() {
		return this.fresh.get();
	}

}
