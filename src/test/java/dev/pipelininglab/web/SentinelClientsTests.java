package dev.pipelininglab.web;

import dev.pipelininglab.testsupport.RedisTestServers;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Clients, connections and connectors on master + replica + 3 sentinels, Lettuce reading
 * from the replica as the sentinel profile does (Jedis always reads from the master).
 */
class SentinelClientsTests extends ClientsContract {

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServers.sentinel().addTo(registry);
		registry.add("spring.data.redis.lettuce.read-from", () -> "replica-preferred");
	}

	@Override
	void flushTestServers() {
		RedisTestServers.sentinel().flushAll();
	}

}
