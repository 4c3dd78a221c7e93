package dev.pipelininglab.web;

import dev.pipelininglab.testsupport.RedisTestServers;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Clients, connections and connectors on one standalone Redis. */
class StandaloneClientsTests extends ClientsContract {

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServers.standalone().addTo(registry);
	}

	@Override
	void flushTestServers() {
		RedisTestServers.standalone().flushAll();
	}

}
