package dev.pipelininglab.redis;

import java.util.List;

import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What the app talks to, as the connection factory was configured by Spring Boot: the
 * kind of deployment and the addresses it was given (sentinels for sentinel, seed nodes
 * for cluster).
 */
public record Topology(Kind kind, List<String> nodes) {

	public enum Kind {

		STANDALONE, SENTINEL, CLUSTER;

		@Override
		public String toString() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

	public static Topology of(LettuceConnectionFactory factory) {
		if (factory.isClusterAware()) {
			return new Topology(Kind.CLUSTER, addresses(factory.getClusterConfiguration().getClusterNodes()));
		}
		if (factory.isRedisSentinelAware()) {
			var sentinel = factory.getSentinelConfiguration();
			return new Topology(Kind.SENTINEL, addresses(sentinel.getSentinels()));
		}
		RedisStandaloneConfiguration standalone = factory.getStandaloneConfiguration();
		return new Topology(Kind.STANDALONE, List.of(standalone.getHostName() + ":" + standalone.getPort()));
	}

	private static List<String> addresses(Iterable<RedisNode> nodes) {
		var addresses = new java.util.ArrayList<String>();
		nodes.forEach((node) -> addresses.add(node.getHost() + ":" + node.getPort()));
		return List.copyOf(addresses);
	}

	/** For messages: {@code redis at 127.0.0.1:6379} or {@code sentinels at a:1, b:2}. */
	public String describe() {
		String what = switch (this.kind) {
			case STANDALONE -> "Redis";
			case SENTINEL -> "Redis sentinels";
			case CLUSTER -> "Redis cluster nodes";
		};
		return what + " at " + String.join(", ", this.nodes);
	}

}
