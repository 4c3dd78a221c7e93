package dev.pipelininglab.web.problem;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.RawHttp;
import dev.pipelininglab.web.AppOnTestRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failure no handler expects (a bug) is still a problem of the catalogue: the error
 * page answers it after Spring MVC's handlers pass it on, and the stack trace goes to the
 * log, not to the client.
 */
@Import(UnexpectedFailureTests.Failing.class)
@ExtendWith(OutputCaptureExtension.class)
class UnexpectedFailureTests extends AppOnTestRedis {

	@Test
	void anUnexpectedFailureIsA500ProblemWithTheStackTraceOnlyInTheLog(CapturedOutput output) {
		RawHttp answer = RawHttp.send(this.port, "GET", "/test-only/failing");
		assertThat(answer.status()).as(answer.toString()).isEqualTo(500);
		assertThat(answer.header("Content-Type")).as(answer.toString()).startsWith("application/problem+json");
		assertThat(JsonPath.<String>read(answer.body(), "$.type")).isEqualTo("urn:pipelining-lab:problem:unexpected");
		assertThat(JsonPath.<String>read(answer.body(), "$.instance")).isEqualTo("/test-only/failing");
		assertThat(answer.body()).doesNotContain("a bug", "Exception", "\tat ");
		assertThat(output.getAll()).contains("IllegalStateException: a bug", "\tat ");
	}

	@RestController
	static class Failing {

		@GetMapping("/test-only/failing")
		String fail() {
			throw new IllegalStateException("a bug");
		}

	}

}
