package dev.pipelininglab.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

/** {@code lab.health.ready}: 1 while the readiness group is UP, else 0. */
@Component
class ReadinessGauge {

	ReadinessGauge(MeterRegistry registry, HealthEndpoint health) {
		Gauge.builder("lab.health.ready", health, ReadinessGauge::ready)
			.description("1 while /actuator/health/readiness is UP (Redis takes writes), else 0")
			.register(registry);
	}

	private static double ready(HealthEndpoint health) {
		HealthDescriptor readiness = health.healthForPath("readiness");
		return (readiness != null && Status.UP.equals(readiness.getStatus())) ? 1 : 0;
	}

}
