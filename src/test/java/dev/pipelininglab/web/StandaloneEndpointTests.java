package dev.pipelininglab.web;

import dev.pipelininglab.testsupport.RedisTestServers;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class StandaloneEndpointTests extends EndpointContract {

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServers.standalone().addTo(registry);
	}

	@Override
	void flushTestServers() {
		RedisTestServers.standalone().flushAll();
	}

	@Override
	String topology() {
		return "standalone";
	}

}
