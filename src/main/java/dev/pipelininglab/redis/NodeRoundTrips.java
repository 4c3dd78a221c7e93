package dev.pipelininglab.redis;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import io.lettuce.core.RedisException;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * PING round trips to each node of a cluster, on the connections a route's commands take
 * (through its latency relays, when it has them), so an answer shows that every node, not
 * only the one a keyless PING lands on, sits behind the added delay.
 */
public final class NodeRoundTrips {

	private NodeRoundTrips() {
	}

	/**
	 * @return for each reachable node ({@code host:port} as the cluster announces it),
	 * the median of {@code pings} PING round trips in milliseconds; null when the route
	 * does not lead to a cluster
	 */
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
				catch (DataAccessException | RedisException ex) {
					// A node going away meanwhile is the run's business only if it holds
					// the run's keys, and then the run itself says so. Spring Data Redis
					// hands a failed connect to one node over untranslated, as Lettuce's
					// RedisConnectionException.
					continue;
				}
				Arrays.sort(nanos);
				millis.put(node.getHost() + ":" + node.getPort(), Math.round(nanos[pings / 2] / 1e3) / 1e3);
			}
		}
		return millis;
	}

}
