package dev.pipelininglab.testsupport;

import java.util.Map;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A test Redis the app is pointed at with Spring Boot's own {@code spring.data.redis.*}
 * properties.
 */
public interface SpringRedis extends AutoCloseable {

	Map<String, String> springProperties();

	/** FLUSHALL on these servers' masters, and only on them. */
	void flushAll();

	/**
	 * Stops the servers of an instance of the caller's own.
	 * @throws IllegalStateException for a shared instance, which other tests still use
	 */
	@Override
	void close();

	/** For a {@code @DynamicPropertySource}: the app under test connects here. */
	default void addTo(DynamicPropertyRegistry registry) {
		springProperties().forEach((name, value) -> registry.add(name, () -> value));
	}

}
