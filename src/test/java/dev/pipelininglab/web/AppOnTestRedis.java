package dev.pipelininglab.web;

import dev.pipelininglab.testsupport.RedisTestServers;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole app on a real port, on the shared test redis-server: for clients that speak
 * real HTTP (a browser, newman, an event stream reader). Subclasses share one application
 * context, so it starts once.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "lab.local-redis.enabled=false")
public abstract class AppOnTestRedis {

	@LocalServerPort
	protected int port;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServers.standalone().addTo(registry);
	}

	protected String baseUrl() {
		return "http://127.0.0.1:" + this.port;
	}

	protected static void flushRedis() {
		RedisTestServers.standalone().flushAll();
	}

}
