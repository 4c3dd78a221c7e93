package dev.pipelininglab;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Starts the lab: a Spring Boot app that measures Redis pipelining against the Redis it
 * is configured with.
 */
// Spring Boot's servlet security would ask for credentials on loopback too (and log a
// generated password at every start); web.guard.ListenerSecurity secures the app only
// where it listens beyond loopback. By name here, so a spring.autoconfigure.exclude of
// the user's own does not bring them back.
@SpringBootApplication(excludeName = {
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration" })
@ConfigurationPropertiesScan
public class PipeliningLabApplication {

	public static void main(String[] args) {
		SpringApplication.run(PipeliningLabApplication.class, args);
	}

}
