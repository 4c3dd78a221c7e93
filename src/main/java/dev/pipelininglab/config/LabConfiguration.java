package dev.pipelininglab.config;

import java.util.function.Function;

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

import org.springframework.beans.factory.BeanRegistrar;
import org.springframework.beans.factory.BeanRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Each feature is given its own part of {@link LabProperties} and nothing more, so the
 * features depend on their settings, never on this package. (The local Redis launcher
 * binds its part before the context exists.)
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LabProperties.class)
@Import(LabConfiguration.Parts.class)
public class LabConfiguration {

	static class Parts implements BeanRegistrar {

		@Override
		public void register(BeanRegistry registry, Environment environment) {
			part(registry, KeyProperties.class, (lab) -> new KeyProperties(lab.keyPrefix()));
			part(registry, LimitProperties.class, LabProperties::limits);
			part(registry, AdmissionProperties.class, LabProperties::admission);
			part(registry, WarmUpProperties.class, LabProperties::warmUp);
			part(registry, CompareProperties.class, LabProperties::compare);
			part(registry, PipelineProperties.class, LabProperties::pipeline);
			part(registry, SafetyProperties.class, LabProperties::safety);
			part(registry, KeyExpiryProperties.class, LabProperties::keys);
			part(registry, HealthProperties.class, LabProperties::health);
			part(registry, JobProperties.class, LabProperties::jobs);
			part(registry, FleetProperties.class, LabProperties::fleet);
		}

		// Named by type (keyProperties, ...), as the @Bean methods they replaced were.
		private static <T> void part(BeanRegistry registry, Class<T> type, Function<LabProperties, T> part) {
			registry.registerBean(StringUtils.uncapitalize(type.getSimpleName()), type,
					(bean) -> bean.supplier((context) -> part.apply(context.bean(LabProperties.class))));
		}

	}

}
