package dev.pipelininglab.localredis;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The redis-server the app starts itself when no Redis is reachable, under
 * {@code lab.local-redis.*}. {@link LocalRedisLauncher} reads them from the environment
 * before any bean exists; this record documents and binds them.
 *
 * @param enabled start a local redis-server when none answers at the configured
 * standalone loopback address
 * @param binary a redis-server executable to use instead of the one on the PATH or the
 * bundled one
 */
@ConfigurationProperties("lab.local-redis")
public record LocalRedisProperties(@DefaultValue("true") boolean enabled, @Nullable String binary) {

}
