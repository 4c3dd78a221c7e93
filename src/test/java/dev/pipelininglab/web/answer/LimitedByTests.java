package dev.pipelininglab.web.answer;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.run.Bottleneck;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Every answer says what held its run back, with the figures that decided it, checked on
 * cases whose answer is known: round trips through a relay, a rate asked for, a million
 * pipelined commands on loopback, and a variant that hands Redis the work; every row of
 * the default comparison is explained, or its figures say why not.
 */
@SlowTest
@SharedRedis
class LimitedByTests extends MockMvcOnTestRedis {

	@Test
	void aLoopThroughTwoMillisecondsOfRoundTripIsNetworkBound() throws Exception {
		String body = okBody("/loopset/300?rtt=2", jsonPath("$.limitedBy.what").value("network"),
				jsonPath("$.limitedBy.evidence.roundTrips").value(300));
		assertThat(JsonPath.<Double>read(body, "$.limitedBy.evidence.roundTripWait")).isGreaterThanOrEqualTo(0.5);
		assertThat(JsonPath.<String>read(body, "$.limitedBy.sentence"))
			.startsWith("network-bound: waiting on 300 round trips of ");
	}

	@Test
	void aRateThatWasHeldIsWhatHeldTheRunBack() throws Exception {
		// One batch every 50 ms: so little work that even a busy machine holds it.
		okBody("/pipeset/4000?batchSize=100&rate=2000", jsonPath("$.offeredRate.held").value(true),
				jsonPath("$.limitedBy.what").value("rate"), jsonPath("$.limitedBy.evidence.rateAsked").value(2000));
		// A loop at 2,000 a second: rate whenever it kept up (a crowded machine may not).
		String loop = okBody("/loopset/4000?rate=2000", jsonPath("$.limitedBy.evidence.rateAsked").value(2000));
		boolean held = JsonPath.read(loop, "$.offeredRate.held");
		assertThat(JsonPath.<String>read(loop, "$.limitedBy.what")).as(loop)
			.matches((what) -> held == what.equals("rate"));
	}

	@Test
	void aMillionPipelinedOnLoopbackIsClientServerOrRoundTripWithTheCpuFiguresThatDecidedIt() throws Exception {
		String body = okBody("/pipeset/1000000", jsonPath("$.verified").value(1_000_000));
		Map<String, Object> evidence = JsonPath.read(body, "$.limitedBy.evidence");
		assertThat(evidence).as(body)
			.containsKeys("sendingThreadBusy", "eventLoopBusy", "processBusy", "processors", "serverBusy")
			.containsEntry("serversOnThisMachine", true);
		// 100 round trips of a fraction of a millisecond: never the network.
		assertThat((Double) evidence.get("roundTripWait")).isLessThan(0.5);
		assertExplainedOrSaysWhyNot(body, "$", "client", "server", "round-trip");
	}

	@Test
	void everyRowOfTheDefaultComparisonIsExplainedOrItsFiguresSayWhyNot() throws Exception {
		String body = okBody("/compare/set/10000");
		List<String> variants = results(body, "variant");
		assertThat(variants).hasSizeGreaterThan(4);
		for (int row = 0; row < variants.size(); row++) {
			assertExplainedOrSaysWhyNot(body, "$.results[" + row + "]", "client", "server", "network", "round-trip");
		}
	}

	/**
	 * Undetermined only where the evidence conflicts: other work filled the machine, or
	 * the figures leave most of the pass to something none of them saw.
	 */
	private static void assertExplainedOrSaysWhyNot(String body, String result, String... explained) {
		String what = JsonPath.read(body, result + ".limitedBy.what");
		String sentence = JsonPath.read(body, result + ".limitedBy.sentence");
		Map<String, Object> evidence = JsonPath.read(body, result + ".limitedBy.evidence");
		if (!what.equals("undetermined")) {
			assertThat(what).as(body).isIn((Object[]) explained);
			assertThat(sentence).startsWith(what + "-bound: ").contains("busy");
		}
		else if (sentence.contains("other work took most of them")) {
			assertThat(((Number) evidence.get("machineBusy")).doubleValue()).as(body).isGreaterThanOrEqualTo(0.7);
		}
		else {
			assertThat(sentence).as(body).contains("leave most of the pass unaccounted for");
			double accounted = Math.max(figure(evidence, "sendingThreadBusy"), figure(evidence, "eventLoopBusy"))
					+ figure(evidence, "serverBusy") + figure(evidence, "roundTripWait");
			assertThat(accounted).as(body).isLessThan(0.5);
		}
	}

	private static double figure(Map<String, Object> evidence, String name) {
		Object value = evidence.get(name);
		return (value != null) ? ((Number) value).doubleValue() : 0;
	}

	@Test
	void aScriptGivesTheServerMoreOfThePassThanAPipeline() throws Exception {
		String body = okBody("/compare/set/200000?variants=pipelined,script&batchSize=1000");
		List<String> variants = results(body, "variant");
		List<Number> server = results(body, "limitedBy.evidence.serverBusy");
		List<String> what = results(body, "limitedBy.what");
		assertThat(variants).hasSize(2);
		// A missing field drops out of a JsonPath list: the size says each row has one.
		assertThat(what).as(body)
			.hasSize(2)
			.isSubsetOf(Stream.of(Bottleneck.What.values()).map(Bottleneck.What::label).toList());
		// Redis runs a whole batch's SETs inside one EVALSHA: its share of the pass is
		// higher than when the client sends each SET itself.
		assertThat(server.get(1).doubleValue()).as(body).isGreaterThan(server.get(0).doubleValue());
	}

	@Test
	void theTextTableSaysItInAWordAndTheSentenceFollows() throws Exception {
		String text = this.mvc.perform(get("/loopset/300?rtt=2").accept(MediaType.TEXT_PLAIN))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		List<String> lines = text.lines().toList();
		assertThat(lines.get(0)).isEqualTo("SET loop, 300 commands on standalone, 2 ms RTT added");
		assertThat(lines.get(2)).contains(" limited ");
		assertThat(lines.get(3)).contains(" network ");
		assertThat(text).contains("\nlimited by: loop: network-bound: waiting on 300 round trips of ");
		String csv = this.mvc.perform(get("/loopset/300?rtt=2").accept(MediaType.parseMediaType("text/csv")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(csv.lines().findFirst().orElseThrow()).contains(",limited,").endsWith(",note,limited by");
		assertThat(csv).contains(",network,", "\"network-bound: waiting on 300 round trips of ");
	}

}
