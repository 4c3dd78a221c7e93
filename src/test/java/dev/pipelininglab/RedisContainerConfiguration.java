package dev.pipelininglab;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;

/**
 * A Redis in Docker, wired in through Spring Boot's service connection (standalone only:
 * Boot's Redis service connections do not describe sentinel or cluster). For developers
 * with Docker; the test suite itself starts real redis-server processes and does not need
 * it.
 */
@TestConfiguration(proxyBeanMethods = false)
public class RedisContainerConfiguration {

	@Bean
	@ServiceConnection(name = "redis")
	GenericContainer<?> redisContainer() {
		return new GenericContainer<>(DockerImageName.parse("redis:7.4-alpine")).withExposedPorts(6379);
	}

}
