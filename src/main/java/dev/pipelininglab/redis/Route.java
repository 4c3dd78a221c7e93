package dev.pipelininglab.redis;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The way a run's commands reach Redis: connector, sharing, flush policy, RTT. */
public record Route(Connector connector, Sharing sharing, @Nullable FlushPolicy flushPolicy, Writes writes,
		@Nullable Duration addedRtt, RedisConnectionFactory factory, StringRedisTemplate template,
		@Nullable String clientName) {

	public LettuceConnectionFactory lettuce() {
		if (this.factory instanceof LettuceConnectionFactory lettuce) {
			return lettuce;
		}
		throw new IllegalStateException("A " + this.connector + " route has no Lettuce factory");
	}

}
