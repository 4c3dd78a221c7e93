package dev.pipelininglab.run;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How many runs may use Redis at once: the one limit GET runs and jobs share.
 *
 * @param maxConcurrent runs (GET or job) that may run commands at once; keep it below
 * {@code spring.data.redis.lettuce.pool.max-active}, or a burst would exhaust the pool
 * @param maxWait how long a GET run may queue for its turn before it is answered 429
 */
public record AdmissionProperties(@DefaultValue("8") @Min(1) int maxConcurrent,
		@DefaultValue("20s") @NotNull Duration maxWait) {

}
