package dev.pipelininglab.redis;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The Redis health check, under {@code lab.health.*}.
 *
 * @param redisTimeout how long {@code /actuator/health} waits for Redis before it reports
 * it DOWN
 */
@ConfigurationProperties("lab.health")
@Validated
public record HealthProperties(@DefaultValue("1s") @NotNull Duration redisTimeout) {

}
