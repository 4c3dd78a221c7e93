package dev.pipelininglab.web.answer;

import java.math.BigDecimal;
import java.math.MathContext;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.AppOnTestRedis;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

/**
 * A run's {@code projection} predicts its throughput at other round trips from its own
 * figures; checked against the RTT lab: what a loopback run predicts for its RTT plus the
 * relay's {@code rtt=1} is within 50% of what the relayed run measured (the median of
 * five pairs), for the loop and for a pipeline. (docs/benchmark.md holds tighter figures
 * from an idle machine; the bound here is loose so a busy CI machine does not fail it.)
 */
@SlowTest
class ProjectionTests extends AppOnTestRedis {

	@Autowired
	JsonMapper json;

	@Test
	void theAnswerStatesTheModelAndPredictsEachRoundTripOfTheList() throws Exception {
		flushRedis();
		JsonNode result = run("/pipeset/5000?batchSize=500&sample=0");
		JsonNode projection = result.path("projection");
		assertThat(projection.path("model").asString()).contains("roundTripsPerItem x rtt + workMillisPerItem");
		assertThat(projection.path("roundTripsPerItem").asDouble()).isEqualTo(1.0 / 500);
		assertThat(projection.path("measuredOpsPerSecond").asDouble())
			.isEqualTo(result.path("opsPerSecond").asDouble());
		assertThat(projection.path("serverMillisPerItem").asDouble()).isPositive();
		assertThat(projection.path("points").findValuesAsString("rttMillis")).hasSize(6);
		double previous = Double.MAX_VALUE;
		for (JsonNode point : projection.path("points")) {
			double predicted = point.path("opsPerSecond").asDouble();
			assertThat(predicted).as("slower as the round trip grows").isLessThan(previous);
			assertThat(predicted)
				.isCloseTo(1000 / (projection.path("roundTripsPerItem").asDouble() * point.path("rttMillis").asDouble()
						+ projection.path("workMillisPerItem").asDouble()), withinPercentage(0.1));
			previous = predicted;
		}
		JsonNode clients = run("/loopset/100?clients=4&sample=0");
		assertThat(clients.has("projection")).as("several clients overlap their round trips").isFalse();
	}

	@Test
	void theLoopsMedianIsTheOneRoundTripOfTheTableTheExplanationTheSummaryAndTheProjection() throws Exception {
		flushRedis();
		for (int round = 0; round < 3; round++) {
			JsonNode answer = run("/compare/set/2000?variants=pipelined,loop&batchSize=100&sample=0");
			JsonNode loop = answer.at("/results/1");
			double rtt = loop.path("measuredRttMillis").asDouble();
			assertThat(rtt).as("the loop's own median, not a PING").isEqualTo(loop.at("/latency/p50").asDouble());
			for (JsonNode result : answer.path("results")) {
				assertThat(result.path("measuredRttMillis").asDouble()).isEqualTo(rtt);
				assertThat(result.at("/limitedBy/evidence/roundTripMillis").asDouble()).isEqualTo(rtt);
				assertThat(result.at("/projection/measuredRttMillis").asDouble()).isEqualTo(rtt);
			}
			String figure = new BigDecimal(rtt).round(new MathContext(3)).stripTrailingZeros().toPlainString();
			assertThat(answer.path("summary").asString()).contains("took " + figure + " ms each (median round trip)");
			// The model reproduces the point it was measured at.
			JsonNode projection = loop.path("projection");
			double atRtt = 1000 / (projection.path("roundTripsPerItem").asDouble() * rtt
					+ projection.path("workMillisPerItem").asDouble());
			assertThat(atRtt).isCloseTo(loop.path("opsPerSecond").asDouble(), withinPercentage(15));
		}
		// A run without a loop falls back on PINGs before it, and its explanation says
		// so.
		JsonNode pipeline = run("/pipeset/2000?batchSize=100&sample=0");
		assertThat(pipeline.path("measuredRttMillis").asDouble()).isPositive()
			.isEqualTo(pipeline.at("/limitedBy/evidence/roundTripMillis").asDouble());
		String sentence = pipeline.at("/limitedBy/sentence").asString();
		if (sentence.contains(" round trips of ")) {
			assertThat(sentence).contains("(median of 3 PINGs before the run)");
		}
		JsonNode alone = run("/loopset/2000?sample=0");
		assertThat(alone.path("measuredRttMillis").asDouble()).isEqualTo(alone.at("/latency/p50").asDouble());
	}

	@Test
	void theLoopbackProjectionOfTheLoopIsWithinAFactorOfFourOfTheRttLabsMeasurementAt1Ms() throws Exception {
		flushRedis();
		check("/compare/set/1000?variants=loop&sample=0", "/compare/set/200?variants=loop&sample=0&rtt=1");
	}

	@Test
	void theLoopbackProjectionOfAPipelineIsWithinAFactorOfFourOfTheRttLabsMeasurementAt1Ms() throws Exception {
		flushRedis();
		check("/compare/set/10000?variants=pipelined-flush-on-close&batchSize=500&sample=0",
				"/compare/set/10000?variants=pipelined-flush-on-close&batchSize=500&sample=0&rtt=1");
	}

	/**
	 * Loopback and relayed runs taken in turn, five times; the median of the five
	 * predicted-over-measured ratios must be within a factor of four: only that the model
	 * is of the right order, as runs of a few milliseconds on a busy machine (two test
	 * JVMs share the cores) gave medians of 1.3 to 2.7; how close it comes is the
	 * benchmark's table (scripts/benchmark.sh --only projection), not this test.
	 */
	private void check(String loopback, String relayed) throws Exception {
		List<Double> ratios = new ArrayList<>();
		for (int round = 0; round < 5; round++) {
			JsonNode near = run(loopback).at("/results/0/projection");
			JsonNode far = run(relayed).at("/results/0");
			// The round trip the relayed run really paid: for the loop its own median per
			// command (a busy machine stretches the relay's 1 ms, and test JVMs share the
			// cores in CI, which put the nominal figure off by 2x); a pipeline's is
			// mostly work, so the relay's nominal 1 ms over loopback serves. (The relay's
			// PING median is not used: on a busy machine it read 2 to 27 ms.)
			double rtt = "command".equals(far.path("latency").path("per").asString())
					? far.path("latency").path("p50").asDouble() : near.path("measuredRttMillis").asDouble() + 1;
			double predicted = 1000
					/ (near.path("roundTripsPerItem").asDouble() * rtt + near.path("workMillisPerItem").asDouble());
			ratios.add(predicted / far.path("opsPerSecond").asDouble());
		}
		double ratio = median(ratios);
		System.out.printf("projection check %s: predicted/measured %s, median %.2f%n", relayed, ratios, ratio);
		assertThat(ratio).isBetween(0.25, 4.0);
	}

	private static double median(List<Double> values) {
		return values.stream().sorted().toList().get(values.size() / 2);
	}

	private JsonNode run(String path) throws Exception {
		HttpResponse<String> answer = http().get(path, null);
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		return this.json.readTree(answer.body());
	}

}
