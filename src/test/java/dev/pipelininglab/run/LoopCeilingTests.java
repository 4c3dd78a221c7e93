package dev.pipelininglab.run;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One command per round trip cannot beat 1/RTT: the sentence that says so, from the
 * loop's own median round trip, and what it says when the figures disagree, without Redis
 * or HTTP.
 */
class LoopCeilingTests {

	@Test
	void aLoopIsBoundByOneRoundTripPerCommand() {
		// 0.1 ms per command: at most 10,000 a second.
		RunResult loop = ResultOf.loop(1000).opsPerSecond(8000).latency(Latency.Per.COMMAND, 0.1, 0.3).build();
		assertThat(LoopCeiling.sentence(List.of(loop))).isEqualTo("The loop's own commands took 0.1 ms each (median"
				+ " round trip), so a loop on one connection cannot beat 10,000 ops/s; it ran at 8,000.");
	}

	@Test
	void theBoundComesFromTheLoopEvenWhenOtherVariantsRanFirst() {
		RunResult pipeline = ResultOf.pipelined(1000, 100).opsPerSecond(90_000).build();
		RunResult loop = ResultOf.loop(1000).opsPerSecond(4000).latency(Latency.Per.COMMAND, 0.2, 0.3).build();
		assertThat(LoopCeiling.sentence(List.of(pipeline, loop))).startsWith("The loop's own commands took 0.2 ms")
			.contains("cannot beat 5,000 ops/s");
	}

	@Test
	void aLoopThatBeatItsOwnMedianGetsNoBound() {
		// Uneven round trips: most fast, a few slow enough to lift the median.
		RunResult loop = ResultOf.loop(1000).opsPerSecond(12_000).latency(Latency.Per.COMMAND, 0.1, 0.3).build();
		assertThat(LoopCeiling.sentence(List.of(loop)))
			.isEqualTo("The loop ran at 12,000 ops/s, faster than the"
					+ " median of its own round trips (0.1 ms, at most 10,000 ops/s) allows: its round trips were"
					+ " uneven, so that median bounds nothing here.")
			.doesNotContain("cannot beat");
	}

	@Test
	void severalClientsMultiplyTheBoundByTheirConnections() {
		RunResult loops = ResultOf.loop(1000)
			.opsPerSecond(15_000)
			.clients(4)
			.latency(Latency.Per.COMMAND, 0.2, 0.3)
			.build();
		assertThat(LoopCeiling.sentence(List.of(loops)))
			.contains("so 4 loops on 4 connections cannot beat 20,000 ops/s");
	}

	@Test
	void theLoopsOwnMedianIsTheRoundTripOfEveryResultAndNoPingIsNamed() {
		// The loop sent no PINGs (0): its median round trip is the answer's, for every
		// row.
		RunResult pipeline = ResultOf.pipelined(1000, 100).opsPerSecond(90_000).pingMillis(0).build();
		RunResult loop = ResultOf.loop(1000)
			.opsPerSecond(8000)
			.pingMillis(0)
			.latency(Latency.Per.COMMAND, 0.1, 0.3)
			.build();
		List<RunResult> answer = LoopCeiling.oneRoundTrip(List.of(pipeline, loop));
		assertThat(answer).extracting((result) -> result.timing().measuredRttMillis()).containsExactly(0.1, 0.1);
		assertThat(answer.get(0).projection().measuredRttMillis()).isEqualTo(0.1);
		assertThat(LoopCeiling.sentence(answer)).contains("took 0.1 ms each", "cannot beat 10,000 ops/s")
			.doesNotContain("PING");
	}

	@Test
	void withoutALoopEveryResultGetsTheMedianOfThePingsBeforeIt() {
		List<RunResult> answer = LoopCeiling.oneRoundTrip(List.of(ResultOf.pipelined(1000, 10).pingMillis(0.2).build(),
				ResultOf.pipelined(1000, 100).pingMillis(0.9).build(),
				ResultOf.pipelined(1000, 1000).pingMillis(0.3).build()));
		assertThat(answer).extracting((result) -> result.timing().measuredRttMillis()).containsOnly(0.3);
		assertThat(LoopCeiling.sentence(answer)).startsWith("PINGs before the run measured 0.3 ms (median)");
	}

	@Test
	void aPacedLoopIsTimedFromWhenEachCommandWasDueSoItsMedianIsNoRoundTrip() {
		RunResult paced = ResultOf.loop(1000)
			.rate(2000)
			.opsPerSecond(2000)
			.pingMillis(0.1)
			.latency(Latency.Per.COMMAND, 3, 9)
			.build();
		assertThat(LoopCeiling.timingItsRoundTrips(List.of(paced))).isNull();
		assertThat(LoopCeiling.oneRoundTrip(List.of(paced)).get(0).timing().measuredRttMillis()).isEqualTo(0.1);
	}

	@Test
	void withoutALoopASweepsBatchSizeOneStandsInForIt() {
		RunResult single = ResultOf.pipelined(1000, 1).opsPerSecond(3000).latency(Latency.Per.BATCH, 0.25, 0.5).build();
		assertThat(LoopCeiling.sentence(List.of(single))).startsWith("At batch size 1, pipelined's own commands took"
				+ " 0.25 ms each (median round trip), so a loop on one connection cannot beat 4,000 ops/s");
	}

	@Test
	void batchSizeOneRepeatedAsRequestsDoesNotStandInForTheLoop() {
		// A fan-out's samples time whole requests, not round trips: the PINGs decide.
		RunResult fanOut = ResultOf.pipelined(1000, 1)
			.requests(3)
			.opsPerSecond(3000)
			.pingMillis(0.5)
			.latency(Latency.Per.REQUEST, 300, 310)
			.build();
		assertThat(LoopCeiling.sentence(List.of(fanOut))).isEqualTo(
				"PINGs before the run measured 0.5 ms (median), so a loop on one connection would not beat 2,000 ops/s.");
	}

	@Test
	void withoutAnySingleRoundTripTheBoundIsTheMedianOfThePings() {
		List<RunResult> even = List.of(ResultOf.pipelined(1000, 10).pingMillis(0.2).build(),
				ResultOf.pipelined(1000, 100).pingMillis(0.4).build());
		assertThat(LoopCeiling.sentence(even)).isEqualTo(
				"PINGs before the run measured 0.3 ms (median), so a loop on one connection would not beat 3,333 ops/s.");
		List<RunResult> odd = List.of(ResultOf.pipelined(1000, 10).pingMillis(0.9).build(),
				ResultOf.pipelined(1000, 100).pingMillis(0.1).build(),
				ResultOf.pipelined(1000, 1000).pingMillis(0.2).build());
		assertThat(LoopCeiling.sentence(odd)).contains("measured 0.2 ms (median)");
	}

	@Test
	void aBatchSizeOneFasterThanThePingsAllowGetsNoBoundAtAll() {
		// Its own latency too short to record: only the PINGs are left, and the run beat
		// them.
		RunResult single = ResultOf.pipelined(1000, 1)
			.opsPerSecond(5000)
			.pingMillis(1)
			.latency(Latency.Per.BATCH, 0, 0)
			.build();
		assertThat(LoopCeiling.sentence(List.of(single))).isEqualTo("PINGs before the run measured 1 ms, yet"
				+ " pipelined at batch size 1 ran at 5,000 ops/s, faster than that round trip allows (1,000 ops/s):"
				+ " the two measures disagree, so no loop bound is given.");
	}

	@Test
	void noRoundTripMeasuredNoSentence() {
		assertThat(LoopCeiling.sentence(List.of(ResultOf.pipelined(1000, 10).pingMillis(0).build()))).isNull();
		assertThat(LoopCeiling.sentence(List.of())).isNull();
	}

	@Test
	void roundTripsArePrintedToThreeSignificantDigits() {
		RunResult loop = ResultOf.loop(1000).opsPerSecond(100).latency(Latency.Per.COMMAND, 0.123456, 0.3).build();
		assertThat(LoopCeiling.sentence(List.of(loop))).contains("took 0.123 ms each");
		RunResult slow = ResultOf.loop(1000).opsPerSecond(100).latency(Latency.Per.COMMAND, 2.0, 3).build();
		assertThat(LoopCeiling.sentence(List.of(slow))).contains("took 2 ms each");
	}

}
