package dev.pipelininglab.redis;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The Redis health check, under {@code lab.health.*}.
 *
 * @param redisTimeout how long {@code /actuator/health} waits for Redis before it reports
 * it DOWN
 */
public record HealthProperties(@DefaultValue("1s") @NotNull Duration redisTimeout) {

}
