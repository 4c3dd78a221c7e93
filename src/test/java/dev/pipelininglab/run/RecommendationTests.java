package dev.pipelininglab.run;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sweep's advice at each round trip, by the same rule as at the measured one, worked
 * out by hand: results are read from JSON as a stored record keeps them, no Redis and no
 * HTTP involved.
 */
class RecommendationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final long COUNT = 10_000;

	/** Loopback: each batch size's work per item, in ms, and a 0.05 ms round trip. */
	private static final double RTT = 0.05;

	@Test
	void aLongerRoundTripIsAdvisedLongerBatchesByTheSameNinetyPercentRule() {
		// Per item: b=1000 takes 0.001 + 0.05/1000 ms (952,381 ops/s), b=10000 0.00095 +
		// 0.05/10000 (1,047,120): 1000 is within 90% here. At 20 ms: 47,619 against
		// 338,983, so 10000.
		List<RunResult> results = List.of(result(1, 0.02, null), result(10, 0.004, null), result(100, 0.0015, null),
				result(1000, 0.001, null), result(10_000, 0.00095, null));
		Recommendation recommendation = Recommendation.of(results);
		assertThat(recommendation).isNotNull();
		assertThat(recommendation.batchSize()).isEqualTo(1000);
		List<Recommendation.AtRtt> byRtt = recommendation.byRtt();
		assertThat(byRtt).hasSize(1 + Projection.RTTS.size());
		assertThat(byRtt.get(0))
			.isEqualTo(new Recommendation.AtRtt(RTT, 1000, results.get(3).timing().opsPerSecond(), true));
		assertThat(byRtt.subList(1, byRtt.size())).extracting(Recommendation.AtRtt::rttMillis)
			.containsExactlyElementsOf(Projection.RTTS);
		assertThat(byRtt.subList(1, byRtt.size())).noneMatch(Recommendation.AtRtt::measured);
		assertThat(byRtt).extracting(Recommendation.AtRtt::batchSize).isSorted();
		Recommendation.AtRtt far = byRtt.get(byRtt.size() - 1);
		assertThat(far.rttMillis()).isEqualTo(20.0);
		assertThat(far.batchSize()).isEqualTo(10_000);
		assertThat(far.opsPerSecond()).isCloseTo(1000 / (0.00095 + 20.0 / 10_000),
				org.assertj.core.data.Offset.offset(1.0));
		// At 0.1 ms already: 1000 gives 909,091 and 10000 1,041,667, under 90% of it.
		assertThat(byRtt.get(1)).extracting(Recommendation.AtRtt::rttMillis, Recommendation.AtRtt::batchSize)
			.containsExactly(0.1, 10_000);
	}

	@Test
	void aReplyBufferRedisTookNoSampleOfIsSaidToBeUnmeasuredNotZeroBytes() {
		Recommendation unsampled = Recommendation.of(List.of(result(100, 0.001, 0L), result(1000, 0.001, 0L)));
		assertThat(unsampled).isNotNull();
		assertThat(unsampled.peakOutputBufferBytes()).isNull();
		assertThat(unsampled.summary()).doesNotContain("0 bytes").contains("reply buffer was not measured");
		Recommendation sampled = Recommendation.of(List.of(result(100, 0.001, 20_504L)));
		assertThat(sampled).isNotNull();
		assertThat(sampled.peakOutputBufferBytes()).isEqualTo(20_504L);
		assertThat(sampled.summary()).contains("a peak reply buffer of 20,504 bytes");
	}

	@Test
	void withoutAProjectionForEveryResultOnlyTheMeasuredRoundTripIsAdvised() {
		RunResult withClients = JSON.readValue(json(1000, 0.001, null).replace("\"latency\"",
				"\"clients\":{\"count\":2,\"opsPerSecond\":{\"min\":1,\"median\":2,\"max\":3},\"perClient\":[]},"
						+ "\"latency\""),
				RunResult.class);
		assertThat(withClients.projection()).isNull();
		Recommendation recommendation = Recommendation.of(List.of(result(100, 0.002, null), withClients));
		assertThat(recommendation).isNotNull();
		assertThat(recommendation.byRtt()).singleElement().satisfies((at) -> assertThat(at.measured()).isTrue());
	}

	/**
	 * A pipelined SET pass of {@link #COUNT} items in batches of {@code batchSize} that
	 * took {@code workPerItem} ms per item beside its round trips of {@link #RTT}.
	 */
	private static RunResult result(int batchSize, double workPerItem, Long peak) {
		return JSON.readValue(json(batchSize, workPerItem, peak), RunResult.class);
	}

	private static String json(int batchSize, double workPerItem, Long peak) {
		long batches = COUNT / batchSize;
		double elapsed = COUNT * workPerItem + batches * RTT;
		String server = (peak != null) ? String.format(Locale.ROOT,
				",\"server\":{\"commands\":%d,\"reads\":10,\"writes\":10,\"peakOutputBufferBytes\":%d}", COUNT, peak)
				: "";
		return String.format(Locale.ROOT,
				"{\"operation\":\"set\",\"mode\":\"pipelined\",\"variant\":\"pipelined-buffered-500\",\"count\":%d,"
						+ "\"batchSize\":%d,\"batches\":%d,\"topology\":\"standalone\",\"elapsedMillis\":%s,"
						+ "\"opsPerSecond\":%s,\"repeat\":1,\"measuredRttMillis\":%s,\"sample\":[],"
						+ "\"latency\":{\"per\":\"batch\",\"samples\":%d,\"p50\":1,\"p90\":1,\"p99\":2,\"p999\":2,"
						+ "\"max\":2},\"connector\":{\"name\":\"lettuce\",\"connection\":\"shared\"}%s}",
				COUNT, batchSize, batches, elapsed, COUNT / elapsed * 1000, RTT, batches, server);
	}

}
