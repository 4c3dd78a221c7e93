package dev.pipelininglab.run;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A comparison's summary from figures built in the test: the pipelining answer first,
 * with each speedup's honest bounds, then what is faster for code that can use it, and a
 * warning where the passes ranged too far to conclude.
 */
class ComparisonSummaryTests {

	private static final RunResult LOOP = ResultOf.loop(10_000).opsPerSecond(10_000).spread(9_000, 11_000).build();

	private static final RunResult AS_BOOT = ResultOf.pipelined(10_000, 100)
		.variant("pipelined-flush-each-command")
		.flushPolicy("flush-each-command")
		.opsPerSecond(40_000)
		.spread(33_000, 44_000)
		.build();

	private static final RunResult CONFIGURED = ResultOf.pipelined(10_000, 100)
		.variant("pipelined-buffered-500")
		.flushPolicy("buffered-500")
		.opsPerSecond(100_000)
		.spread(99_000, 110_000)
		.build();

	private static final RunResult MULTI_KEY = ResultOf.of(Mode.MULTI_KEY, 10_000, 100)
		.opsPerSecond(500_000)
		.spread(450_000, 550_000)
		.build();

	@Test
	void theFirstSentenceSetsBothPipelinesAgainstTheLoopEachWithItsSlowestOverFastestBounds() {
		List<RunResult> rows = Comparison.rows(List.of(LOOP, AS_BOOT, CONFIGURED, MULTI_KEY));
		assertThat(rows.get(1).speedup()).isEqualTo(4.0);
		// Its slowest pass over the loop's fastest, its fastest over the loop's slowest.
		assertThat(rows.get(1).speedupMin()).isEqualTo(3.0);
		assertThat(rows.get(1).speedupMax()).isEqualTo(4.89);
		String summary = ComparisonSummary.of(rows, rows.get(2), null);
		assertThat(summary).startsWith("executePipelined as Spring Boot gives it (pipelined-flush-each-command) ran"
				+ " 4.0× (3.0–4.9×) the loop; with one line of configuration (pipelined-buffered-500) 10.0× (9.0–12.2×),"
				+ " whose loop ran 10,000 ops/s (9,000–11,000). Even faster, if your code can use them: multi-key 50.0×"
				+ " (40.9–61.1×).");
		assertThat(summary).doesNotContain("Unsteady");
	}

	@Test
	void passesMoreThanTwiceApartAreSaidToBeTooUnsteadyToConcludeFrom() {
		RunResult shaky = ResultOf.loop(10_000).opsPerSecond(10_000).spread(5_000, 16_000).build();
		List<RunResult> rows = Comparison.rows(List.of(shaky, CONFIGURED));
		assertThat(ComparisonSummary.of(rows, rows.get(1), null))
			.startsWith("executePipelined with one line of configuration (pipelined-buffered-500) ran 10.0×")
			.contains("Unsteady: the passes of loop ranged 5,000–16,000 ops/s (3.2× apart)");
	}

	@Test
	void withoutALoopOrAPipelineTheFastestRowLeads() {
		List<RunResult> rows = Comparison.rows(List.of(LOOP, MULTI_KEY));
		assertThat(ComparisonSummary.of(rows, null, null))
			.startsWith("Fastest: multi-key at 500,000 ops/s (450,000–550,000), 50.0× (40.9–61.1×) the loop");
		assertThat(ComparisonSummary.of(Comparison.rows(List.of(MULTI_KEY)), null, null))
			.startsWith("Only multi-key ran: 500,000 ops/s (450,000–550,000).");
		assertThat(ComparisonSummary.of(List.of(), null, null)).isEqualTo("Nothing ran: every variant was skipped.");
	}

}
