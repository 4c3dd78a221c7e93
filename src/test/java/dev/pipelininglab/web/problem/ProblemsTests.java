package dev.pipelininglab.web.problem;

import dev.pipelininglab.ProblemType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The web side of the problem catalogue builds the whole problem: type, title, status,
 * and the words its detail starts with.
 */
class ProblemsTests {

	@ParameterizedTest
	@EnumSource(ProblemType.class)
	void everyTypeHasAnErrorStatus(ProblemType type) {
		assertThat(HttpStatus.valueOf(type.status()).isError()).isTrue();
	}

	@Test
	void aProblemCarriesTheCataloguesTypeTitleStatusAndDetailOpening() {
		ProblemDetail problem = Problems.of(ProblemType.REDIS_TIMEOUT, "Redis at 127.0.0.1:7000");
		assertThat(problem.getType()).isEqualTo(ProblemType.REDIS_TIMEOUT.uri());
		assertThat(problem.getTitle()).isEqualTo("Redis did not answer in time");
		assertThat(problem.getStatus()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE.value());
		assertThat(problem.getDetail()).isEqualTo(
				"Redis at 127.0.0.1:7000 did not answer within the command timeout (spring.data.redis.timeout).");
	}

}
