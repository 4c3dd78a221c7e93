package dev.pipelininglab.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The projection's model without Redis or HTTP: a pass of N items is R round trips plus
 * work that does not wait on the network, {@code W = elapsed - R x measuredRtt}, so at
 * another round trip r it takes {@code R x r + W}. ({@code web.ProjectionTests} checks
 * the model against the RTT lab.)
 */
class ProjectionModelTests {

	@Test
	void aLoopPaysOneRoundTripPerItemAndKeepsTheRestAsWork() {
		// 1,000 commands in 200 ms over a 0.1 ms round trip: 100 ms waiting, 100 ms work.
		Projection projection = Projection.of(ResultOf.loop(1000).elapsedMillis(200).pingMillis(0.1).build());
		assertThat(projection.roundTripsPerItem()).isEqualTo(1.0);
		assertThat(projection.workMillisPerItem()).isEqualTo(0.1);
		assertThat(projection.opsPerSecondAt(1.0)).isCloseTo(1000 / 1.1, within(1e-6));
	}

	@Test
	void aPipelinePaysOneRoundTripPerBatch() {
		// 10,000 commands in 20 batches, 50 ms: 2 ms of round trips, 48 ms of work.
		Projection projection = Projection
			.of(ResultOf.pipelined(10_000, 500).elapsedMillis(50).pingMillis(0.1).build());
		assertThat(projection.roundTripsPerItem()).isEqualTo(1.0 / 500);
		assertThat(projection.workMillisPerItem()).isEqualTo(0.0048);
		assertThat(projection.opsPerSecondAt(20)).isCloseTo(1000 / (20.0 / 500 + 0.0048), within(1e-6));
	}

	@Test
	void eachPointOfTheListIsTheModelRoundedToWholeOpsAndSlowerAsTheRoundTripGrows() {
		Projection projection = Projection.of(ResultOf.pipelined(10_000, 100).elapsedMillis(40).build());
		assertThat(projection.points()).extracting(Projection.Point::rttMillis)
			.containsExactlyElementsOf(Projection.RTTS);
		double previous = Double.MAX_VALUE;
		for (Projection.Point point : projection.points()) {
			assertThat(point.opsPerSecond()).isEqualTo(Math.round(projection.opsPerSecondAt(point.rttMillis())));
			assertThat(point.opsPerSecond()).isLessThan(previous);
			previous = point.opsPerSecond();
		}
	}

	@Test
	void itStatesTheModelAndTheFiguresItStartedFrom() {
		RunResult result = ResultOf.loop(1000).opsPerSecond(4000).pingMillis(0.2).build();
		Projection projection = Projection.of(result);
		assertThat(projection.model()).contains("roundTripsPerItem x rtt + workMillisPerItem");
		assertThat(projection.measuredOpsPerSecond()).isEqualTo(4000);
		assertThat(projection.measuredRttMillis()).isEqualTo(0.2);
	}

	@Test
	void workIsNeverNegativeWhenTheRoundTripsAloneExceedTheElapsedTime() {
		// 1,000 round trips of 0.1 ms cannot fit in 50 ms: the PINGs overstated the RTT.
		Projection projection = Projection.of(ResultOf.loop(1000).elapsedMillis(50).pingMillis(0.1).build());
		assertThat(projection.workMillisPerItem()).isZero();
		assertThat(projection.opsPerSecondAt(0.1)).isCloseTo(10_000, within(1e-6));
	}

	@Test
	void theServersCpuIsSplitOutOfTheWorkAndTheRestIsTheClients() {
		// 2 µs of server CPU per command, 1,000 commands: 0.002 ms per item of 0.1 ms
		// work.
		Projection projection = Projection
			.of(ResultOf.loop(1000).elapsedMillis(200).pingMillis(0.1).server(1000, 2.0, null).build());
		assertThat(projection.serverMillisPerItem()).isEqualTo(0.002);
		assertThat(projection.clientMillisPerItem()).isEqualTo(0.098);
	}

	@Test
	void withoutTheServersCpuNeitherShareIsGiven() {
		Projection projection = Projection.of(ResultOf.loop(1000).server(1000, null, null).build());
		assertThat(projection.serverMillisPerItem()).isNull();
		assertThat(projection.clientMillisPerItem()).isNull();
	}

	@Test
	void aFanOutCountsTheItemsAndRoundTripsOfEveryRequest() {
		// 3 requests of 1,000 items in batches of 100: 3,000 items, 30 round trips.
		Projection projection = Projection.of(ResultOf.pipelined(1000, 100).requests(3).elapsedMillis(30).build());
		assertThat(projection.roundTripsPerItem()).isEqualTo(0.01);
		assertThat(projection.workMillisPerItem()).isCloseTo((30 - 30 * 0.1) / 3000, within(1e-9));
	}

	@Test
	void atItsOwnRoundTripItGivesWhatTheRunMeasured() {
		// The loop's median round trip (0.07 ms) is under its mean (0.08 ms): the rest
		// is work.
		RunResult loop = ResultOf.loop(10_000).opsPerSecond(12_500).pingMillis(0.07).build();
		Projection projection = Projection.of(loop);
		assertThat(projection.opsPerSecondAt(projection.measuredRttMillis())).isCloseTo(12_500, within(1e-6));
		RunResult pipeline = ResultOf.pipelined(10_000, 500).opsPerSecond(400_000).pingMillis(0.07).build();
		assertThat(Projection.of(pipeline).opsPerSecondAt(0.07)).isCloseTo(400_000, within(1e-6));
	}

	@Test
	void aTimeLimitProjectsTheCommandsThatRanNotTheCountAsked() {
		// 10,000 asked, the limit let 1,000 through in 20 batches of 50 in 100 ms.
		Projection projection = Projection
			.of(ResultOf.pipelined(10_000, 50).timeLimit(1_000).elapsedMillis(100).pingMillis(0.1).build());
		assertThat(projection.measuredOpsPerSecond()).isEqualTo(10_000);
		assertThat(projection.roundTripsPerItem()).isEqualTo(0.02);
		assertThat(projection.opsPerSecondAt(0.1)).isCloseTo(10_000, within(1e-6));
	}

	@Test
	void aPacedRunIsTimedByItsPaceSoItGetsNoProjection() {
		// rate=2000 for 1 s in batches of 1,000: the pass waited for its turns, and its
		// time says nothing of its round trips.
		RunResult paced = ResultOf.pipelined(10_000, 1_000).rate(2_000).timeLimit(1_000).elapsedMillis(1_000).build();
		assertThat(paced.timing().opsPerSecond()).isEqualTo(1_000);
		assertThat(Projection.of(paced)).isNull();
	}

	@Test
	void severalClientsOverlapTheirRoundTripsSoTheModelGivesNoProjection() {
		assertThat(Projection.of(ResultOf.loop(100).clients(4).build())).isNull();
	}

	@Test
	void aRunTooShortToMeasureGivesNoProjection() {
		assertThat(Projection.of(ResultOf.loop(100).elapsedMillis(0).build())).isNull();
		assertThat(Projection.of(ResultOf.loop(0).elapsedMillis(1).build())).isNull();
	}

}
