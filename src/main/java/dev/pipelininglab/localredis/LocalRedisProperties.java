package dev.pipelininglab.localredis;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The redis-server the app starts when no Redis is reachable, under
 * {@code lab.local-redis.*}; read from the environment by {@link LocalRedisLauncher}
 * before any bean exists.
 *
 * @param enabled start a local redis-server when none answers at the standalone loopback
 * address
 * @param binary a redis-server executable to use instead of the one on the PATH or the
 * bundled one
 */
public record LocalRedisProperties(@DefaultValue("true") boolean enabled, @Nullable String binary) {

}
