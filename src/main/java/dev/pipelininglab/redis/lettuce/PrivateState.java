package dev.pipelininglab.redis.lettuce;

import java.util.Objects;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.DirectFieldAccessor;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The private fields of Lettuce and Spring Data Redis the lab reads, in one place that
 * {@code LettuceHooksContractTests} checks against the versions in use: neither library
 * offers them publicly.
 */
public final class PrivateState {

	private PrivateState() {
	}

	/**
	 * The factory's configuration: its getters fall back to localhost:6379 for the kinds
	 * they do not cover, such as Boot's {@code spring.data.redis.masterreplica}.
	 */
	public static @Nullable RedisConfiguration configuration(LettuceConnectionFactory factory) {
		return (RedisConfiguration) new DirectFieldAccessor(factory).getPropertyValue("configuration");
	}

	/** The URI a Redis client was built with, credentials and TLS included. */
	public static RedisURI redisUri(AbstractRedisClient client) {
		return (RedisURI) Objects.requireNonNull(new DirectFieldAccessor(client).getPropertyValue("redisURI"),
				"RedisClient.redisURI (Lettuce moved it?)");
	}

	static Object initialUris(AbstractRedisClient client) {
		return Objects.requireNonNull(new DirectFieldAccessor(client).getPropertyValue("initialUris"),
				"RedisClusterClient.initialUris (Lettuce moved it?)");
	}

}
