package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * One PING to one server that joins a pipeline: Spring Data Redis' cluster {@code ping()}
 * fans out blocking calls to every node instead.
 */
public final class Ping {

	private Ping() {
	}

	public static @Nullable String once(RedisConnection connection) {
		if (!(connection instanceof RedisClusterConnection)) {
			return connection.ping();
		}
		Object reply = connection.execute("PING");
		return (reply instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8)
				: (reply != null) ? reply.toString() : null;
	}

}
