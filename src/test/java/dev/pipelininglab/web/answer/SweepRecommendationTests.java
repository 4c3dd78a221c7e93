package dev.pipelininglab.web.answer;

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

/**
 * A sweep recommends the smallest batch size within 90% of the best throughput it
 * measured, with that size's reply buffer and latency per batch, on a real Redis; a sweep
 * run as a job carries the same.
 */
@SlowTest
class SweepRecommendationTests extends AppOnTestRedis {

	@Autowired
	JsonMapper json;

	@Test
	void aSweepRecommendsTheSmallestBatchSizeWithin90PercentOfTheBest() throws Exception {
		flushRedis();
		HttpResponse<String> answer = http().get("/sweep/set/30000?batchSizes=10,100,1000,10000&sample=0", null);
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		JsonNode sweep = this.json.readTree(answer.body());
		JsonNode recommendation = sweep.path("recommendation");
		List<JsonNode> results = new ArrayList<>();
		sweep.path("results").forEach(results::add);
		double best = results.stream()
			.mapToDouble((result) -> result.path("opsPerSecond").asDouble())
			.max()
			.orElseThrow();
		int size = recommendation.path("batchSize").asInt();
		JsonNode chosen = results.stream()
			.filter((result) -> result.path("batchSize").asInt() == size)
			.findFirst()
			.orElseThrow();
		assertThat(chosen.path("opsPerSecond").asDouble()).isGreaterThanOrEqualTo(0.9 * best);
		assertThat(results).filteredOn((result) -> result.path("batchSize").asInt() < size)
			.allSatisfy((smaller) -> assertThat(smaller.path("opsPerSecond").asDouble()).isLessThan(0.9 * best));
		assertThat(recommendation.path("opsPerSecond").asDouble()).isEqualTo(chosen.path("opsPerSecond").asDouble());
		assertThat(recommendation.path("bestOpsPerSecond").asDouble()).isEqualTo(best);
		// One pass per batch size: no spread to show.
		assertThat(recommendation.has("opsPerSecondMin")).isFalse();
		assertThat(recommendation.path("peakOutputBufferBytes").asLong())
			.isEqualTo(chosen.at("/server/peakOutputBufferBytes").asLong());
		assertThat(recommendation.path("latencyPer").asString()).isEqualTo("batch");
		assertThat(recommendation.path("latencyP50Millis").asDouble()).isEqualTo(chosen.at("/latency/p50").asDouble());
		assertThat(recommendation.path("summary").asString()).startsWith(String.format("Use batches of %,d: ", size))
			.contains("of the best");
	}

	@Test
	void aSweepAdvisesAtLeastAsLongBatchesAtTheLargestProjectedRoundTripAsAtTheMeasuredOne() throws Exception {
		flushRedis();
		HttpResponse<String> answer = http().get("/sweep/set/20000", null);
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		JsonNode recommendation = this.json.readTree(answer.body()).path("recommendation");
		List<JsonNode> byRtt = new ArrayList<>();
		recommendation.path("byRtt").forEach(byRtt::add);
		assertThat(byRtt).as(answer.body()).hasSize(7);
		JsonNode measured = byRtt.get(0);
		assertThat(measured.path("measured").asBoolean()).isTrue();
		assertThat(measured.path("batchSize").asInt()).isEqualTo(recommendation.path("batchSize").asInt());
		assertThat(byRtt.subList(1, byRtt.size()))
			.allSatisfy((at) -> assertThat(at.path("measured").asBoolean()).isFalse());
		JsonNode largest = byRtt.stream()
			.max(java.util.Comparator.comparingDouble((at) -> at.path("rttMillis").asDouble()))
			.orElseThrow();
		assertThat(largest.path("rttMillis").asDouble()).isEqualTo(20.0);
		assertThat(largest.path("batchSize").asInt()).isGreaterThanOrEqualTo(measured.path("batchSize").asInt());
	}

	@Test
	void theTextTableOfASweepEndsWithTheRecommendation() throws Exception {
		flushRedis();
		HttpResponse<String> text = http().get("/sweep/set/2000?batchSizes=10,100&sample=0", "text/plain");
		assertThat(text.statusCode()).isEqualTo(200);
		assertThat(text.body()).containsPattern("(?m)^recommended: Use batches of (10|100): ");
	}

	@Test
	void aSweepRunAsAJobCarriesTheSameRecommendation() throws Exception {
		flushRedis();
		HttpResponse<String> started = http().postJson("/runs",
				"{\"kind\":\"sweep\",\"operation\":\"set\",\"count\":2000,\"batchSizes\":[1,100],\"sample\":0}");
		assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
		String location = started.headers().firstValue("Location").orElseThrow();
		JsonNode record = org.awaitility.Awaitility.await()
			.atMost(java.time.Duration.ofSeconds(60))
			.until(() -> this.json.readTree(http().get(location, null).body()),
					(node) -> node.path("status").asString().equals("DONE"));
		JsonNode recommendation = record.path("recommendation");
		assertThat(recommendation.path("batchSize").asInt()).isIn(1, 100);
		assertThat(recommendation.path("summary").asString()).startsWith("Use batches of");
		assertThat(this.json.readTree(http().get(location, null).body()).path("recommendation").isObject())
			.as("still there when the record is read back from Redis")
			.isTrue();
	}

}
