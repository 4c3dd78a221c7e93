package dev.pipelininglab.web;

import java.time.Duration;

import dev.pipelininglab.testsupport.Http;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SharedRedis;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The whole app on a real port, on the shared test redis-server: for clients that speak
 * real HTTP (a browser, newman, an event stream reader). Subclasses share one application
 * context, so it starts once.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@SharedRedis
public abstract class AppOnTestRedis {

	@LocalServerPort
	protected int port;

	private @Nullable Http http;

	protected String baseUrl() {
		return "http://127.0.0.1:" + this.port;
	}

	/**
	 * A client for the app, each request bounded to 90 s: a bound that fails a hung test,
	 * not a speed claim; CI's test JVMs on two cores beside a browser made a 3 s sweep
	 * take over 30 s.
	 */
	protected Http http() {
		if (this.http == null) {
			this.http = new Http(this.port, Duration.ofSeconds(90));
		}
		return this.http;
	}

	protected static void flushRedis() {
		RedisTestServers.standalone().flushAll();
	}

}
