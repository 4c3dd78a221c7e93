package dev.pipelininglab.redis;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code redis} health component, in place of Spring Boot's: Boot's PINGs whatever
 * server the connection reaches first, which stayed UP through a sentinel master outage
 * (the PING went to a replica) and went UP on a cluster while every write got
 * CLUSTERDOWN. This one is UP only while the lab can write ({@link RedisDiagnosis}), and
 * its details say what is missing. Boot backs off its own contributor for a bean of this
 * name, and {@link RedisConfiguration} bounds it by {@code lab.health.redis-timeout} like
 * Boot's (the bean name is what that post-processor looks for).
 * <p>
 * The details hold addresses, states and slot ranges only (never exception texts); they
 * are shown by the {@code redis-writes} health group
 * ({@code /actuator/health/redis-writes}), while {@code /actuator/health} keeps showing
 * statuses alone.
 */
@Component("redisHealthContributor")
class RedisHealth implements HealthIndicator {

	private final RedisDiagnosis diagnosis;

	RedisHealth(RedisDiagnosis diagnosis) {
		this.diagnosis = diagnosis;
	}

	@Override
	public Health health() {
		RedisDiagnosis.Finding finding = this.diagnosis.diagnose();
		RedisDiagnosis.Cause cause = finding.cause();
		Health.Builder health = (cause == null) ? Health.up() : Health.down().withDetail("cause", cause);
		return health.withDetail("summary", finding.summary()).withDetails(finding.details()).build();
	}

}
