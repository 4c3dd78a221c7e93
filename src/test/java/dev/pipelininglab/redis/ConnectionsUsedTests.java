package dev.pipelininglab.redis;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.types.RedisClientInfo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CLIENT LIST counts idle time in whole seconds of the server's clock, so which
 * connections a pass used is judged by the seconds between the list before the pass began
 * and the list after it ended, as the server's clock read them.
 */
class ConnectionsUsedTests {

	private static final Set<String> SET = Set.of("set");

	@Test
	void aListReadAcrossASecondsTurnStillCountsTheConnectionThePassUsed() {
		// The pass and the TIME before the second list fall in second 10; the list itself
		// is
		// read in second 11, where the connection is one second idle.
		ServerCounters.ClientList before = list(10_200_000L);
		ServerCounters.ClientList after = list(11_000_010L, client("route-a", "set", 1));
		assertThat(ServerCounters.used(before, after, "route-a", SET)).isEqualTo(1);
	}

	@Test
	void aConnectionIdleSinceBeforeThePassIsNotCounted() {
		ServerCounters.ClientList before = list(10_200_000L);
		ServerCounters.ClientList after = list(10_500_100L, client("route-a", "set", 0), client("route-a", "set", 3));
		assertThat(ServerCounters.used(before, after, "route-a", SET)).isEqualTo(1);
	}

	@Test
	void onlyTheRoutesConnectionsWhoseLastCommandIsTheRunsCount() {
		ServerCounters.ClientList before = list(10_200_000L);
		ServerCounters.ClientList after = list(10_500_100L, client("route-b", "set", 0), client("route-a", "info", 0),
				client("route-a", "set", 0));
		assertThat(ServerCounters.used(before, after, "route-a", SET)).isEqualTo(1);
	}

	@Test
	void aForeignClientNamedWithBackslashesIsReadAsItIsAndCostsTheCountNothing() {
		ServerCounters.ClientList before = list(10_200_000L);
		ServerCounters.ClientList after = list(10_500_100L, client("C:\\users\\", "get", 0),
				client("route-a", "set", 0));
		assertThat(after.clients().get(0).getName()).isEqualTo("C:\\users\\");
		assertThat(after.clients().get(0).getIdle()).isZero();
		assertThat(ServerCounters.used(before, after, "route-a", SET)).isEqualTo(1);
	}

	private static ServerCounters.ClientList list(long serverMicros, RedisClientInfo... clients) {
		return new ServerCounters.ClientList(List.of(clients), serverMicros, 1);
	}

	private static RedisClientInfo client(String name, String cmd, long idleSeconds) {
		return NodeInfo.client("id=7 name=" + name + " idle=" + idleSeconds + " cmd=" + cmd);
	}

}
