package dev.pipelininglab;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Starts the lab. */
// Boot's servlet security would ask for credentials on loopback too;
// web.guard.ListenerSecurity secures the app only where it listens beyond loopback. By
// name, so a user's own autoconfigure.exclude keeps them out.
@SpringBootApplication(excludeName = {
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration" })
@ConfigurationPropertiesScan
// Boot's scheduler then runs the heartbeat of run records and the sweep of dead runs
// (job.AbandonedRuns).
@EnableScheduling
public class PipeliningLabApplication {

	public static void main(String[] args) {
		SpringApplication.run(PipeliningLabApplication.class, args);
	}

}
