package dev.pipelininglab;

import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The problem catalogue names every problem: type, title, and the words its detail starts
 * with (the status and the whole {@code ProblemDetail} are the web layer's:
 * {@code web.ProblemsTests}).
 */
class ProblemTypeTests {

	private static final Pattern TYPE = Pattern.compile("urn:pipelining-lab:problem:[a-z]+(-[a-z]+)*");

	@ParameterizedTest
	@EnumSource(ProblemType.class)
	void everyTypeHasAStableUriATitleAndADetail(ProblemType type) {
		assertThat(type.uri().toString()).matches(TYPE);
		assertThat(type.title()).isNotBlank();
		// As many blanks as the longest detail has, and some.
		assertThat(type.detail(new Object[12])).isNotBlank();
	}

	@Test
	void detailsBuiltFromTheCatalogueReadAsTheyAlwaysHave() {
		assertThat(ProblemType.REDIS_UNAVAILABLE.detail("Redis at localhost:6379"))
			.isEqualTo("Cannot reach Redis at localhost:6379. Start Redis or point spring.data.redis.* at one; the app"
					+ " reconnects by itself.");
		assertThat(ProblemType.REDIS_ERROR_REPLY.detail("a command on k", "WRONGTYPE x"))
			.isEqualTo("Redis answered a command on k with an error: WRONGTYPE x");
		assertThat(ProblemType.RUN_NOT_FOUND.detail("abc"))
			.isEqualTo("No run with id 'abc': it never existed, its record expired, or DELETE /keys removed it");
		assertThat(ProblemType.UNEXPECTED.detail("request", "processed"))
			.isEqualTo("The request could not be processed; the server log has details.");
		assertThat(ProblemType.REDIS_MASTER_UNREACHABLE.detail("Master m at h:1 does not answer."))
			.isEqualTo("Master m at h:1 does not answer. The app reconnects by itself.");
	}

}
