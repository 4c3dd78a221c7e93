package dev.pipelininglab.redis;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * What tells routes apart: the same key leases the same route.
 *
 * @param policy Lettuce's flush policy; null for Jedis
 * @param writes Lettuce's way of handing flushes to Netty; null for Jedis
 * @param rtt the round-trip time added through latency relays, null when connected
 * directly
 */
record RouteKey(Connector connector, Sharing sharing, @Nullable FlushPolicy policy, @Nullable Writes writes,
		@Nullable Duration rtt) {

}
