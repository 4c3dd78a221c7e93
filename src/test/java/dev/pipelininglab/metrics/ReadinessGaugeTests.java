package dev.pipelininglab.metrics;

import java.time.Duration;

import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.web.MockMvcOnOwnRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code lab_health_ready} follows the readiness group: 1 while Redis answers, 0 while it
 * does not (here paused, so the health check times out), 1 again once it answers.
 */
@OwnRedis
@SlowTest
class ReadinessGaugeTests extends MockMvcOnOwnRedis {

	@Autowired
	StandaloneRedis redis;

	@Test
	void theGaugeIsOneWhileRedisTakesWritesAndZeroWhileItDoesNot() throws Exception {
		assertThat(scrape()).contains("lab_health_ready 1.0");
		Outages.pause(this.redis.process());
		try {
			await().atMost(Duration.ofSeconds(20)).until(() -> scrape().contains("lab_health_ready 0.0"));
			send("/actuator/health/readiness", 503);
		}
		finally {
			answerAgain(this.redis, "/actuator/health/readiness");
		}
		assertThat(scrape()).contains("lab_health_ready 1.0");
	}

	private String scrape() throws Exception {
		return send("/actuator/prometheus", 200).getContentAsString();
	}

}
