package dev.pipelininglab.web.guard;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.RawHttp;
import dev.pipelininglab.web.AppOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under a servlet context path Actuator's bodiless errors still come back as problems,
 * and its parameters are still checked.
 */
@TestPropertySource(properties = "server.servlet.context-path=/lab")
class ContextPathTests extends AppOnTestRedis {

	@Test
	void actuatorsBodilessErrorIsAProblemUnderAContextPath() {
		RawHttp answer = RawHttp.send(this.port, "GET", "/lab/actuator/metrics/nonexistent");
		assertThat(answer.status()).as(answer.toString()).isEqualTo(404);
		assertThat(answer.header("Content-Type")).as(answer.toString()).startsWith("application/problem+json");
		assertThat(JsonPath.<Integer>read(answer.body(), "$.status")).isEqualTo(404);
	}

	@Test
	void anUnknownActuatorParameterIsA400UnderAContextPath() {
		RawHttp answer = RawHttp.send(this.port, "GET", "/lab/actuator/health?verbose=1");
		assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
		assertThat(JsonPath.<String>read(answer.body(), "$.parameter")).isEqualTo("verbose");
	}

}
