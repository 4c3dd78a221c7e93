package dev.pipelininglab;

import org.springframework.boot.SpringApplication;

/**
 * Runs the app against a Redis container: {@code ./mvnw spring-boot:test-run} on a
 * machine with Docker.
 */
public final class TestPipeliningLabApplication {

	private TestPipeliningLabApplication() {
	}

	public static void main(String[] args) {
		// The container is the Redis; the local redis-server fallback must not start
		// beside it.
		System.setProperty("lab.local-redis.enabled", "false");
		SpringApplication.from(PipeliningLabApplication::main).with(RedisContainerConfiguration.class).run(args);
	}

}
