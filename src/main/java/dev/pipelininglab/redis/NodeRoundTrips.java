package dev.pipelininglab.redis;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import io.lettuce.core.RedisException;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;

/** PING round trips to each cluster node on a route's own connections (and relays). */
public final class NodeRoundTrips {

	private NodeRoundTrips() {
	}

	public static @Nullable Map<String, Double> measure(Route route, int pings) {
		if (route.connector() != Connector.LETTUCE || !route.lettuce().isClusterAware()) {
			return null;
		}
		Map<String, Double> millis = new TreeMap<>();
		try (RedisClusterConnection cluster = route.lettuce().getClusterConnection()) {
			for (RedisClusterNode node : cluster.clusterGetNodes()) {
				if (node.getFlags().contains(RedisClusterNode.Flag.FAIL)) {
					continue;
				}
				long[] nanos = new long[pings];
				try {
					for (int i = 0; i < pings; i++) {
						long start = System.nanoTime();
						cluster.ping(node);
						nanos[i] = System.nanoTime() - start;
					}
				}
				// A node going away is the run's business only if it holds the run's
				// keys; Spring Data Redis hands a failed connect to one node over
				// untranslated.
				catch (DataAccessException | RedisException ex) {
					continue;
				}
				Arrays.sort(nanos);
				millis.put(node.getHost() + ":" + node.getPort(), Math.round(nanos[pings / 2] / 1e3) / 1e3);
			}
		}
		return millis;
	}

}
