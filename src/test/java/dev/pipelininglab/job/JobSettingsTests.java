package dev.pipelininglab.job;

import java.time.Duration;
import java.util.List;

import dev.pipelininglab.SettingsRunner;
import dev.pipelininglab.config.LabConfiguration;
import dev.pipelininglab.run.AdmissionProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab.jobs.*}, {@code lab.admission.*} (the one limit jobs share with GET runs),
 * {@code lab.fleet.*} and {@code lab.metrics.*}: usable defaults, and start-up fails on
 * settings that cannot work.
 */
class JobSettingsTests {

	private final ApplicationContextRunner runner = SettingsRunner.validating(Enable.class);

	@Test
	void defaults() {
		this.runner.run((context) -> {
			JobProperties jobs = context.getBean(JobProperties.class);
			AdmissionProperties admission = context.getBean(AdmissionProperties.class);
			assertThat(admission.maxConcurrent()).isEqualTo(8);
			assertThat(admission.maxWait()).isEqualTo(Duration.ofSeconds(20));
			assertThat(jobs.queueCapacity()).isZero();
			assertThat(jobs.recordTtl()).isEqualTo(Duration.ofHours(24));
			assertThat(jobs.history()).isEqualTo(100);
			assertThat(jobs.progressInterval()).isEqualTo(Duration.ofMillis(200));
			assertThat(jobs.heartbeat()).isEqualTo(Duration.ofSeconds(5));
			assertThat(jobs.staleAfter()).isEqualTo(Duration.ofSeconds(30));
			assertThat(jobs.sweepInterval()).isEqualTo(Duration.ofSeconds(30));
			FleetProperties fleet = context.getBean(FleetProperties.class);
			assertThat(fleet.join()).isFalse();
			assertThat(fleet.maxInstances()).isEqualTo(16);
			assertThat(fleet.joinTimeout()).isEqualTo(Duration.ofSeconds(10));
		});
	}

	@Test
	void noConcurrentRunsFailsStartUp() {
		SettingsRunner.assertStartUpFails(this.runner, List.of("lab.admission.max-concurrent=0"),
				"admission.maxConcurrent");
	}

	/** A live run's record would be taken for a dead one's between two heartbeats. */
	@Test
	void staleAfterWithinAFewHeartbeatsFailsStartUp() {
		SettingsRunner.assertStartUpFails(this.runner, List.of("lab.jobs.heartbeat=10s", "lab.jobs.stale-after=20s"),
				"at least three times lab.jobs.heartbeat");
	}

	@Test
	void fleetSettingsThatCannotWorkFailStartUp() {
		SettingsRunner.assertStartUpFails(this.runner, List.of("lab.fleet.join-timeout=10ms"),
				"lab.fleet.join-timeout");
		SettingsRunner.assertStartUpFails(this.runner, List.of("lab.fleet.max-instances=0"), "fleet.maxInstances");
	}

	@Test
	void joiningFleetRunsWithoutASecretOfThirtyTwoBytesFailsStartUpSayingHowToSetIt() {
		SettingsRunner.assertStartUpFails(this.runner, List.of("lab.fleet.join=true"),
				"lab.fleet.join=true needs lab.fleet.secret (LAB_FLEET_SECRET) of at least 32 bytes (it has 0)");
		SettingsRunner.assertStartUpFails(this.runner,
				List.of("lab.fleet.join=true", "lab.fleet.secret=thirty-one bytes are too few..."), "(it has 31)");
		this.runner.withPropertyValues("lab.fleet.join=true", "lab.fleet.secret=" + FleetRunTests.SECRET)
			.run((context) -> assertThat(context.getBean(FleetProperties.class).toString()).contains("secret=(set)")
				.doesNotContain(FleetRunTests.SECRET));
	}

	@Test
	void recordTtlUnderAMinuteFailsStartUp() {
		SettingsRunner.assertStartUpFails(this.runner, List.of("lab.jobs.record-ttl=10s"), "lab.jobs.record-ttl");
	}

	@Configuration(proxyBeanMethods = false)
	@Import(LabConfiguration.class)
	static class Enable {

	}

}
