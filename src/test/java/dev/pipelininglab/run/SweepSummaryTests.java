package dev.pipelininglab.run;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sweep's summary sentence: the fastest batch size against the smallest, then the
 * loop's ceiling, from the results alone.
 */
class SweepSummaryTests {

	@Test
	void theFastestBatchSizeIsSetAgainstTheSmallest() {
		String summary = Sweep.summary(List.of(ResultOf.pipelined(10_000, 10).opsPerSecond(10_000).build(),
				ResultOf.pipelined(10_000, 1000).opsPerSecond(100_000).build()));
		assertThat(summary)
			.startsWith("Fastest at batch size 1,000: 100,000 ops/s, 10.0× batch size 10 (10,000 ops/s).");
	}

	@Test
	void theLoopCeilingFollowsFromBatchSizeOne() {
		String summary = Sweep.summary(
				List.of(ResultOf.pipelined(1000, 1).opsPerSecond(2000).latency(Latency.Per.BATCH, 0.25, 0.5).build(),
						ResultOf.pipelined(1000, 100).opsPerSecond(50_000).build()));
		assertThat(summary).contains(" At batch size 1, pipelined's own commands took 0.25 ms each");
	}

	@Test
	void aSweepOfOneBatchSizeHasNothingToCompare() {
		assertThat(Sweep.summary(List.of(ResultOf.pipelined(1000, 100).opsPerSecond(50_000).build())))
			.startsWith("Fastest at batch size 100: 50,000 ops/s.");
	}

	@Test
	void nothingRanSaysSo() {
		assertThat(Sweep.summary(List.of())).isEqualTo("Nothing ran.");
	}

}
