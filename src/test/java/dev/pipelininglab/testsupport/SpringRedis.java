package dev.pipelininglab.testsupport;

import java.util.Map;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A test Redis the app is pointed at with Spring Boot's own {@code spring.data.redis.*}
 * properties.
 */
public interface SpringRedis {

	Map<String, String> springProperties();

	/** For a {@code @DynamicPropertySource}: the app under test connects here. */
	default void addTo(DynamicPropertyRegistry registry) {
		springProperties().forEach((name, value) -> registry.add(name, () -> value));
	}

}
