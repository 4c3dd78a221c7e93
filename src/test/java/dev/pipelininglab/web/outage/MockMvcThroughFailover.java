package dev.pipelininglab.web.outage;

import java.time.Duration;

import dev.pipelininglab.web.MockMvcOnOwnRedis;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * The app through MockMvc on a topology of the subclass's own whose masters the test
 * kills: a Redis timeout of 3 s, reads from replicas where the topology has them, and the
 * bound every answer during the outage must stay under.
 */
@SpringBootTest(
		properties = { "spring.data.redis.timeout=3s", "spring.data.redis.lettuce.read-from=replica-preferred" })
abstract class MockMvcThroughFailover extends MockMvcOnOwnRedis {

	/**
	 * spring.data.redis.timeout plus room for the rest of a request (warm-up,
	 * verification) that did succeed.
	 */
	static final Duration ANSWER_BOUND = Duration.ofSeconds(3 + 2);

}
