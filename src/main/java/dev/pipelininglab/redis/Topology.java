package dev.pipelininglab.redis;

import java.util.Collection;
import java.util.List;
import java.util.Objects;

import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** What the app talks to, as Spring Boot configured the connection factory. */
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
			return new Topology(Kind.CLUSTER,
					addresses(Objects
						.requireNonNull(factory.getClusterConfiguration(),
								"a cluster-aware factory has a cluster configuration")
						.getClusterNodes()));
		}
		if (factory.isRedisSentinelAware()) {
			return new Topology(Kind.SENTINEL, addresses(sentinels(factory).getSentinels()));
		}
		RedisStandaloneConfiguration standalone = factory.getStandaloneConfiguration();
		return new Topology(Kind.STANDALONE, List.of(standalone.getHostName() + ":" + standalone.getPort()));
	}

	static RedisSentinelConfiguration sentinels(LettuceConnectionFactory factory) {
		return Objects.requireNonNull(factory.getSentinelConfiguration(),
				"a sentinel-aware factory has a sentinel configuration");
	}

	static String masterName(LettuceConnectionFactory factory) {
		var master = sentinels(factory).getMaster();
		String name = (master != null) ? master.getName() : null;
		return Objects.requireNonNull(name, "a sentinel-aware factory names its master");
	}

	private static List<String> addresses(Collection<RedisNode> nodes) {
		return nodes.stream().map((node) -> node.getHost() + ":" + node.getPort()).toList();
	}

	public String describe() {
		String what = switch (this.kind) {
			case STANDALONE -> "Redis";
			case SENTINEL -> "Redis sentinels";
			case CLUSTER -> "Redis cluster nodes";
		};
		return what + " at " + String.join(", ", this.nodes);
	}

}
