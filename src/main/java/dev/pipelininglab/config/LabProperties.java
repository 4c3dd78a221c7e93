package dev.pipelininglab.config;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.job.FleetProperties;
import dev.pipelininglab.job.JobProperties;
import dev.pipelininglab.localredis.LocalRedisProperties;
import dev.pipelininglab.redis.HealthProperties;
import dev.pipelininglab.redis.KeyExpiryProperties;
import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.SafetyProperties;
import dev.pipelininglab.run.AdmissionProperties;
import dev.pipelininglab.run.CompareProperties;
import dev.pipelininglab.run.WarmUpProperties;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every lab setting, {@code lab.*}, bound and validated once at start-up: each feature's
 * part is a record of its own package, with its defaults and their reasons
 * (docs/configuration.md), and a bean of its own ({@link LabConfiguration}). The web
 * layer's {@code lab.security} binds on its own: nothing below the web layer names it.
 *
 * @param keyPrefix every key the lab writes, reads or deletes starts with
 * {@code <keyPrefix>:}; no glob characters, so the SCAN pattern built from it never
 * matches keys outside the prefix
 */
@ConfigurationProperties("lab")
@Validated
public record LabProperties(
		@DefaultValue("pipelining-lab") @Pattern(regexp = "[A-Za-z0-9._-]{1,64}",
				message = "must be 1 to 64 letters, digits, '.', '_' or '-' (no glob characters)") String keyPrefix,
		@DefaultValue @Valid @NestedConfigurationProperty LimitProperties limits,
		@DefaultValue @Valid @NestedConfigurationProperty AdmissionProperties admission,
		@DefaultValue @Valid @NestedConfigurationProperty WarmUpProperties warmUp,
		@DefaultValue @Valid @NestedConfigurationProperty CompareProperties compare,
		@DefaultValue @Valid @NestedConfigurationProperty PipelineProperties pipeline,
		@DefaultValue @Valid @NestedConfigurationProperty SafetyProperties safety,
		@DefaultValue @Valid @NestedConfigurationProperty KeyExpiryProperties keys,
		@DefaultValue @Valid @NestedConfigurationProperty HealthProperties health,
		@DefaultValue @Valid @NestedConfigurationProperty JobProperties jobs,
		@DefaultValue @Valid @NestedConfigurationProperty FleetProperties fleet,
		@DefaultValue @Valid @NestedConfigurationProperty LocalRedisProperties localRedis) {

}
