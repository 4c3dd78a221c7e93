package dev.pipelininglab.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

/**
 * {@code lab.health.ready} (in Prometheus {@code lab_health_ready}): 1 while the
 * readiness group ({@code /actuator/health/readiness}: the app accepts traffic and Redis
 * takes writes) is UP, 0 otherwise, so a dashboard shows when runs could not have been
 * measured (deploy/grafana). Read on each scrape; the Redis part is bounded by
 * {@code lab.health.redis-timeout}.
 */
@Component
class ReadinessGauge {

	static final String NAME = "lab.health.ready";

	ReadinessGauge(MeterRegistry registry, HealthEndpoint health) {
		Gauge.builder(NAME, health, ReadinessGauge::ready)
			.description("1 while /actuator/health/readiness is UP (Redis takes writes), else 0")
			.register(registry);
	}

	private static double ready(HealthEndpoint health) {
		HealthDescriptor readiness = health.healthForPath("readiness");
		return (readiness != null && Status.UP.equals(readiness.getStatus())) ? 1 : 0;
	}

}
