package dev.pipelininglab.config;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.job.FleetProperties;
import dev.pipelininglab.job.JobProperties;
import dev.pipelininglab.redis.HealthProperties;
import dev.pipelininglab.redis.KeyExpiryProperties;
import dev.pipelininglab.redis.KeyProperties;
import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.SafetyProperties;
import dev.pipelininglab.run.AdmissionProperties;
import dev.pipelininglab.run.CompareProperties;
import dev.pipelininglab.run.WarmUpProperties;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Each feature is given its own part of {@link LabProperties} and nothing more, so the
 * features depend on their settings, never on this package. (The local Redis launcher
 * binds its part before the context exists.)
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LabProperties.class)
public class LabConfiguration {

	@Bean
	KeyProperties keyProperties(LabProperties lab) {
		return new KeyProperties(lab.keyPrefix());
	}

	@Bean
	LimitProperties limitProperties(LabProperties lab) {
		return lab.limits();
	}

	@Bean
	AdmissionProperties admissionProperties(LabProperties lab) {
		return lab.admission();
	}

	@Bean
	WarmUpProperties warmUpProperties(LabProperties lab) {
		return lab.warmUp();
	}

	@Bean
	CompareProperties compareProperties(LabProperties lab) {
		return lab.compare();
	}

	@Bean
	PipelineProperties pipelineProperties(LabProperties lab) {
		return lab.pipeline();
	}

	@Bean
	SafetyProperties safetyProperties(LabProperties lab) {
		return lab.safety();
	}

	@Bean
	KeyExpiryProperties keyExpiryProperties(LabProperties lab) {
		return lab.keys();
	}

	@Bean
	HealthProperties healthProperties(LabProperties lab) {
		return lab.health();
	}

	@Bean
	JobProperties jobProperties(LabProperties lab) {
		return lab.jobs();
	}

	@Bean
	FleetProperties fleetProperties(LabProperties lab) {
		return lab.fleet();
	}

}
