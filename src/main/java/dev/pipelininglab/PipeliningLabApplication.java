package dev.pipelininglab;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Starts the lab: a Spring Boot app that measures Redis pipelining against the Redis it
 * is configured with.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PipeliningLabApplication {

	public static void main(String[] args) {
		SpringApplication.run(PipeliningLabApplication.class, args);
	}

}
