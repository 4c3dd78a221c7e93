package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * One PING to one server, on every topology. On a cluster, Spring Data Redis'
 * {@code ping()} asks every node in turn through its cluster executor and answers only
 * when all did: a fan-out of blocking calls that never joins a pipeline (inside
 * {@code executePipelined} it ran outside the pipeline and left no reply in it). The raw
 * command instead goes down the connection like any other, to the node Lettuce sends
 * keyless commands to, and pipelines.
 */
public final class Ping {

	private Ping() {
	}

	/**
	 * @return PONG, or null inside a pipeline (the reply then comes with the pipeline's
	 * results)
	 */
	public static @Nullable String once(RedisConnection connection) {
		if (!(connection instanceof RedisClusterConnection)) {
			return connection.ping();
		}
		Object reply = connection.execute("PING");
		return (reply instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8)
				: (reply != null) ? reply.toString() : null;
	}

}
