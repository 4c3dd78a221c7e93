package dev.pipelininglab.web.outage;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * Credentials Redis refuses are named as such on sentinel and cluster too, in the 503 and
 * in health, never as an outage; and the one way to give them, {@code REDIS_USERNAME} and
 * {@code REDIS_PASSWORD} (or Boot's own properties), reaches the data nodes on every
 * topology. The shared servers have no ACL users, so the user {@code nobody} is refused
 * with WRONGPASS.
 */
@SpringBootTest(properties = { "REDIS_USERNAME=nobody", "REDIS_PASSWORD=wrong" })
@AutoConfigureMockMvc
abstract class WrongCredentials {

	static final String AUTH_FAILED = "urn:pipelining-lab:problem:redis-auth-failed";

	@Autowired
	MockMvc mvc;

	@Test
	void runsAnswerAuthFailedAndHealthSaysWhy() throws Exception {
		String problem = this.mvc.perform(get("/pipeset/10")).andReturn().getResponse().getContentAsString();
		assertThat(JsonPath.<Integer>read(problem, "$.status")).as(problem).isEqualTo(503);
		assertThat(JsonPath.<String>read(problem, "$.type")).as(problem).isEqualTo(AUTH_FAILED);
		String health = this.mvc.perform(get("/actuator/health/redis-writes"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(JsonPath.<String>read(health, "$.components.redis.details.cause")).as(health)
			.isEqualTo("AUTH_FAILED");
		assertThat(this.mvc.perform(get("/actuator/health/readiness")).andReturn().getResponse().getStatus())
			.isEqualTo(503);
	}

}
