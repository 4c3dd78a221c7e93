package dev.pipelininglab.job;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Fleet runs, under {@code lab.fleet.*}: instances sharing a Redis and a key prefix that
 * run one measurement together ({@code POST /runs} with {@code instances}).
 *
 * @param join whether this instance answers other instances' calls and may lead a fleet
 * run itself; off, it neither listens nor leads
 * @param maxInstances the most instances one fleet run may ask for
 * @param joinTimeout how long the instance that took the request waits for members to
 * join, and for them to be ready to start
 */
@ConfigurationProperties("lab.fleet")
@Validated
public record FleetProperties(@DefaultValue("false") boolean join,
		@DefaultValue("16") @Min(1) @Max(256) int maxInstances, @DefaultValue("10s") @NotNull Duration joinTimeout) {

	public FleetProperties {
		if (joinTimeout.toMillis() < 100 || joinTimeout.compareTo(Duration.ofMinutes(10)) > 0) {
			throw new IllegalArgumentException(
					"lab.fleet.join-timeout (" + joinTimeout + ") must be between 100ms and 10m");
		}
	}

}
