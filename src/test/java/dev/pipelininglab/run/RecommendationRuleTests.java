package dev.pipelininglab.run;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sweep recommends the smallest batch size within 90% of the best throughput, with that
 * size's reply buffer and latency, without Redis or HTTP
 * ({@code web.SweepRecommendationTests} runs a real sweep).
 */
class RecommendationRuleTests {

	@Test
	void theSmallestBatchSizeWithinNinetyPercentOfTheBestIsRecommended() {
		Recommendation recommendation = Recommendation
			.of(List.of(sized(10, 50_000), sized(100, 95_000), sized(1000, 100_000), sized(10_000, 98_000)));
		assertThat(recommendation.batchSize()).isEqualTo(100);
		assertThat(recommendation.opsPerSecond()).isEqualTo(95_000);
		assertThat(recommendation.shareOfBest()).isEqualTo(0.95);
		assertThat(recommendation.bestBatchSize()).isEqualTo(1000);
		assertThat(recommendation.bestOpsPerSecond()).isEqualTo(100_000);
	}

	@Test
	void exactlyNinetyPercentOfTheBestIsCloseEnough() {
		assertThat(Recommendation.of(List.of(sized(10, 90_000), sized(100, 100_000))).batchSize()).isEqualTo(10);
		assertThat(Recommendation.of(List.of(sized(10, 89_999), sized(100, 100_000))).batchSize()).isEqualTo(100);
	}

	@Test
	void theOrderOfTheResultsDoesNotMatter() {
		assertThat(Recommendation.of(List.of(sized(1000, 100_000), sized(100, 95_000), sized(10, 50_000))).batchSize())
			.isEqualTo(100);
	}

	@Test
	void theSummarySaysWhatTheLongerPipelinesWouldBuy() {
		Recommendation recommendation = Recommendation.of(List.of(ResultOf.pipelined(100_000, 100)
			.opsPerSecond(95_000)
			.latency(Latency.Per.BATCH, 1.25, 2.5)
			.server(1000, null, 20_000L)
			.build(), sized(1000, 100_000)));
		assertThat(recommendation.summary()).isEqualTo("Use batches of 100: 95,000 ops/s, 95% of the best"
				+ " (100,000 ops/s at 1,000), 1.250 ms per batch at p50 (p99 2.500 ms) and a peak reply buffer of"
				+ " 20,000 bytes; longer pipelines add reply memory and latency for at most 5% more throughput.");
		assertThat(recommendation.peakOutputBufferBytes()).isEqualTo(20_000L);
		assertThat(recommendation.latencyPer()).isEqualTo(Latency.Per.BATCH);
		assertThat(recommendation.latencyP50Millis()).isEqualTo(1.25);
		assertThat(recommendation.latencyP99Millis()).isEqualTo(2.5);
	}

	@Test
	void whenTheBestIsAlsoTheSmallestCloseEnoughTheSummarySaysNoSmallerBatchCameWithinTenPercent() {
		Recommendation recommendation = Recommendation.of(List.of(sized(10, 10_000), sized(100, 100_000)));
		assertThat(recommendation.batchSize()).isEqualTo(100);
		assertThat(recommendation.shareOfBest()).isEqualTo(1.0);
		assertThat(recommendation.summary()).startsWith("Use batches of 100: 100,000 ops/s, 100% of the best")
			.endsWith("; no smaller batch came within 10%.")
			.doesNotContain("peak reply buffer");
	}

	@Test
	void withoutTheServersFiguresThereIsNoPeakReplyBuffer() {
		assertThat(Recommendation.of(List.of(sized(100, 1000))).peakOutputBufferBytes()).isNull();
	}

	@Test
	void nothingRanNothingIsRecommended() {
		assertThat(Recommendation.of(List.of())).isNull();
	}

	private static RunResult sized(int batchSize, double opsPerSecond) {
		return ResultOf.pipelined(100_000, batchSize).opsPerSecond(opsPerSecond).build();
	}

}
