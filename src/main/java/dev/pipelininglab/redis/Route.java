package dev.pipelininglab.redis;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The way a run's commands reach Redis: a connector (Lettuce or Jedis), whether template
 * calls share one connection or borrow pooled ones, for Lettuce a pipelining flush policy
 * and way of handing flushes to Netty, either direct or through a latency relay that adds
 * {@code addedRtt} to every round trip.
 *
 * @param flushPolicy Lettuce's flush policy; null for Jedis, which has none
 * @param clientName the name this route's connections give themselves
 * ({@code CLIENT SETNAME}), so the server can tell which connections a run used; null
 * when the route is the auto-configured factory, whose connections keep Spring Boot's
 * {@code spring.data.redis.client-name}
 */
public record Route(Connector connector, Sharing sharing, @Nullable FlushPolicy flushPolicy, Writes writes,
		@Nullable Duration addedRtt, RedisConnectionFactory factory, StringRedisTemplate template,
		@Nullable String clientName) {

	/**
	 * The Lettuce factory, for what only Lettuce offers (its native client, flush
	 * policies, cluster node connections).
	 * @throws IllegalStateException on a Jedis route; callers check the connector first
	 */
	public LettuceConnectionFactory lettuce() {
		if (this.factory instanceof LettuceConnectionFactory lettuce) {
			return lettuce;
		}
		throw new IllegalStateException("A " + this.connector + " route has no Lettuce factory");
	}

}
