package dev.pipelininglab.redis;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The way a run's commands reach Redis: a connection factory with a given pipelining
 * flush policy and way of handing flushes to Netty, either direct or through a latency
 * relay that adds {@code addedRtt} to every round trip.
 */
public record Route(FlushPolicy flushPolicy, Writes writes, @Nullable Duration addedRtt,
		LettuceConnectionFactory factory, StringRedisTemplate template) {
}
