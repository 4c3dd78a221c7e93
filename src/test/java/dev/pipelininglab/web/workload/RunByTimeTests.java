package dev.pipelininglab.web.workload;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * "A loop for ten seconds": with {@code duration} a run ends after that time or after its
 * count, whichever comes first, says how many commands ran and that the limit ended it,
 * and reads back exactly what ran.
 */
@SharedRedis
@SlowTest
class RunByTimeTests extends MockMvcOnTestRedis {

	@Test
	void aLoopOfTenMillionWithThreeSecondsStopsAtThreeSecondsAndVerifiesWhatRan() throws Exception {
		String body = this.mvc.perform(get("/loopset/10000000?duration=3"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.count").value(10_000_000))
			.andExpect(jsonPath("$.timeLimit.seconds").value(3.0))
			.andExpect(jsonPath("$.timeLimit.endedRun").value(true))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(JsonPath.<Double>read(body, "$.elapsedMillis")).isCloseTo(3000.0, within(500.0));
		long ran = ((Number) JsonPath.read(body, "$.timeLimit.commandsRan")).longValue();
		assertThat(ran).isPositive().isLessThan(10_000_000);
		assertThat(((Number) JsonPath.read(body, "$.written")).longValue()).isEqualTo(ran);
		assertThat(((Number) JsonPath.read(body, "$.verified")).longValue()).isEqualTo(ran);
		assertThat(((Number) JsonPath.read(body, "$.batches")).longValue()).isEqualTo(ran);
		assertThat(JsonPath.<Double>read(body, "$.opsPerSecond"))
			.isCloseTo(ran / (JsonPath.<Double>read(body, "$.elapsedMillis") / 1000), within(1.0));
	}

	@Test
	void aRunThatEndsByItsCountBeforeTheTimeSaysTheLimitDidNotEndIt() throws Exception {
		this.mvc.perform(get("/pipeset/2000?batchSize=100&duration=60"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.verified").value(2000))
			.andExpect(jsonPath("$.timeLimit.endedRun").value(false))
			.andExpect(jsonPath("$.timeLimit.commandsRan").value(2000));
	}

	@Test
	void clientsStoppedByTheTimeAreEachReadBackOverTheirOwnPrefix() throws Exception {
		String body = this.mvc.perform(get("/loopset/10000000?duration=1&clients=3"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.timeLimit.endedRun").value(true))
			.andReturn()
			.getResponse()
			.getContentAsString();
		long ran = ((Number) JsonPath.read(body, "$.timeLimit.commandsRan")).longValue();
		assertThat(((Number) JsonPath.read(body, "$.verified")).longValue()).isEqualTo(ran);
		long perClient = JsonPath.<java.util.List<Number>>read(body, "$.clients.perClient[*].items")
			.stream()
			.mapToLong(Number::longValue)
			.sum();
		assertThat(perClient).isEqualTo(ran);
	}

	@Test
	void aPaceWhoseNextBatchFallsDueAfterTheLimitIsTimedOverTheWholeLimitAndProjectsNothing() throws Exception {
		// 2,000 a second in batches of 1,000: the first leaves at 0.5 s, the second would
		// at 1 s, the limit; 1,000 commands in 1 s are 1,000 a second, not 1,971.
		String body = okBody("/pipeset/10000?rate=2000&duration=1&batchSize=1000",
				jsonPath("$.timeLimit.commandsRan").value(1000), jsonPath("$.verified").value(1000),
				jsonPath("$.offeredRate.held").value(false), jsonPath("$.projection").doesNotExist(),
				jsonPath("$.limitedBy.what").value("rate"));
		double elapsed = JsonPath.read(body, "$.elapsedMillis");
		assertThat(elapsed).isGreaterThanOrEqualTo(1000.0);
		assertThat(JsonPath.<Double>read(body, "$.opsPerSecond")).isLessThanOrEqualTo(2000.0)
			.isCloseTo(1000 / (elapsed / 1000), within(1.0));
		assertThat(JsonPath.<String>read(body, "$.limitedBy.sentence")).startsWith(
				"rate-bound: paced at 2,000 commands/s, its next round trip fell due only after the time limit");
	}

	@Test
	void everyVariantOfAComparisonGetsTheSameTime() throws Exception {
		String body = this.mvc
			.perform(get("/compare/set/100000?variants=loop,pipelined&batchSize=10&duration=1&rate=500"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		// At 500 a second, both send about 500 commands in their second.
		for (int variant = 0; variant < 2; variant++) {
			String result = "$.results[" + variant + "]";
			assertThat(JsonPath.<Boolean>read(body, result + ".timeLimit.endedRun")).isTrue();
			assertThat(JsonPath.<Double>read(body, result + ".elapsedMillis")).isCloseTo(1000.0, within(300.0));
			long ran = ((Number) JsonPath.read(body, result + ".timeLimit.commandsRan")).longValue();
			assertThat(ran).isCloseTo(500, within(50L));
			assertThat(((Number) JsonPath.read(body, result + ".verified")).longValue()).isEqualTo(ran);
		}
	}

	@Test
	void aDurationOutsideItsBoundsIsABadRequestNamingIt() throws Exception {
		this.mvc.perform(get("/loopset/10?duration=0"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("duration"));
		this.mvc.perform(get("/loopset/10?duration=301"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("duration"));
		this.mvc.perform(get("/loopset/10?duration=ten"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("duration"));
	}

}
