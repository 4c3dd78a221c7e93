package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule that says what held a pass back, on figures whose answer is known: no Redis,
 * no HTTP, only its arithmetic.
 */
class BottleneckTests {

	private static final long MS = 1_000_000;

	/** A pass of {@code millis} whose clocks read the same window. */
	private static Bottleneck.Measured pass(long millis, long processMillis, long sendingMillis, long eventLoopMillis,
			Map<String, Double> serverSeconds, boolean local) {
		return new Bottleneck.Measured(millis * MS, millis * MS, processMillis * MS, -1, sendingMillis * MS,
				(eventLoopMillis < 0) ? -1 : eventLoopMillis * MS, millis * MS, serverSeconds, local);
	}

	/** A batched pass: 100 items a round trip, the round trip the loop's. */
	private static Bottleneck judge(Bottleneck.Measured pass, int processors, long roundTrips, int clients,
			double rttMillis, int rateAsked, double achieved) {
		return Bottleneck.judge(
				new Bottleneck.Inputs(pass, processors, roundTrips, 100, clients, rateAsked, achieved, false),
				new LoopCeiling.RoundTrip(rttMillis, "median of loop"));
	}

	@Test
	void aPassTooShortToJudgeIsUndetermined() {
		Bottleneck limit = judge(pass(1, 2, 1, 1, Map.of("127.0.0.1:6379", 0.001), true), 2, 1, 1, 0.05, 0, 80_000);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.UNDETERMINED);
		assertThat(limit.sentence()).startsWith("undetermined: the pass took 1 ms, too short to judge (at least 2 ms)");
		// Its figures are still there, but not the process's, read in 10 ms ticks.
		assertThat(limit.evidence().sendingThreadBusy()).isEqualTo(1.0);
		assertThat(limit.evidence().processBusy()).isNull();
	}

	@Test
	void aRateThatWasHeldIsWhatHeldThePassBack() {
		Bottleneck limit = judge(pass(5_000, 300, 150, 100, Map.of("127.0.0.1:6379", 0.1), true), 2, 10_000, 1, 0.05,
				2_000, 1_999.2);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.RATE);
		assertThat(limit.evidence().rateAsked()).isEqualTo(2_000);
		assertThat(limit.evidence().rateAchieved()).isEqualTo(1_999.2);
		assertThat(limit.sentence()).isEqualTo("rate-bound: the pass held the 2,000 commands/s asked for (1,999"
				+ " reached), with the sending thread 3% busy and the server 2% busy; a higher rate, or none, would go"
				+ " faster");
	}

	@Test
	void aRateThatWasNotHeldLeavesTheJudgementToTheOtherFigures() {
		Bottleneck limit = judge(pass(1_000, 1_000, 970, -1, Map.of("127.0.0.1:6379", 0.3), true), 2, 100, 1, 0.05,
				1_000_000, 800_000);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
	}

	@Test
	void waitingOnRoundTripsForMostOfThePassIsTheNetwork() {
		// A loop of 10,000 through a relay adding 2 ms: 20.5 s, 20 s of it waiting.
		Bottleneck limit = judge(pass(20_500, 900, 400, 300, Map.of("127.0.0.1:6379", 0.2), true), 2, 10_000, 1, 2.0, 0,
				487.8);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.NETWORK);
		assertThat(limit.evidence().roundTripWait()).isEqualTo(0.976);
		assertThat(limit.evidence().roundTrips()).isEqualTo(10_000);
		assertThat(limit.evidence().roundTripMillis()).isEqualTo(2.0);
		assertThat(limit.sentence()).isEqualTo("network-bound: waiting on 10,000 round trips of 2 ms (median of loop)"
				+ " took 98% of the pass, with the sending thread 2% busy and the server 1% busy; fewer round trips (a pipeline or larger"
				+ " batches) would go faster");
	}

	@Test
	void aRoundTripCannotWaitLongerThanThePassItIsIn() {
		// A PING slower than the pass's own round trips: the wait is the whole pass, no
		// more.
		Bottleneck limit = judge(pass(1_000, 300, 100, 100, Map.of("127.0.0.1:6379", 0.1), true), 2, 1_000, 1, 2.0, 0,
				1e6);
		assertThat(limit.evidence().roundTripWait()).isEqualTo(1.0);
	}

	@Test
	void clientsShareTheRoundTripsTheyWaitOnSideBySide() {
		// 4 clients, 10,000 round trips between them: 2,500 each of 2 ms in 5.1 s.
		Bottleneck limit = judge(pass(5_100, 900, 400, 300, Map.of("127.0.0.1:6379", 0.2), true), 2, 10_000, 4, 2.0, 0,
				1960);
		assertThat(limit.evidence().roundTripWait()).isEqualTo(0.98);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.NETWORK);
	}

	@Test
	void aSendingThreadBusyMostOfThePassIsTheClient() {
		Bottleneck limit = judge(pass(1_000, 1_300, 970, 400, Map.of("127.0.0.1:6379", 0.38), false), 2, 1_000, 1, 0.05,
				0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
		assertThat(limit.evidence().sendingThreadBusy()).isEqualTo(0.97);
		assertThat(limit.evidence().serverBusy()).isEqualTo(0.38);
		assertThat(limit.evidence().roundTripWait()).isEqualTo(0.05);
		assertThat(limit.sentence()).isEqualTo("client-bound: the sending thread was busy 97% of the pass while the"
				+ " server was 38% busy; more clients or more instances would go faster");
	}

	@Test
	void lettucesEventLoopCountsAsClient() {
		Bottleneck limit = judge(pass(1_000, 1_400, 500, 920, Map.of("127.0.0.1:6379", 0.6), true), 2, 1_000, 1, 0.05,
				0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
		assertThat(limit.sentence()).startsWith("client-bound: Lettuce's event loop was busy 92% of the pass");
	}

	@Test
	void aServerBusierThanTheClientIsTheServer() {
		Bottleneck limit = judge(pass(1_000, 900, 400, 300, Map.of("127.0.0.1:6379", 0.96), true), 2, 1_000, 1, 0.05, 0,
				1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.SERVER);
		assertThat(limit.sentence()).isEqualTo("server-bound: the server was busy 96% of the pass while the sending"
				+ " thread was 40% busy; cheaper commands, or more masters in a cluster, would go faster");
	}

	@Test
	void onAClusterTheBusiestNodeSpeaksForTheServersAndEachIsListed() {
		Map<String, Double> nodes = Map.of("127.0.0.1:7000", 0.9, "127.0.0.1:7001", 0.4, "127.0.0.1:7002", 0.3);
		Bottleneck limit = judge(pass(1_000, 900, 400, 300, nodes, true), 2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.SERVER);
		assertThat(limit.evidence().serverBusy()).isEqualTo(0.9);
		assertThat(limit.evidence().serverBusyByNode()).containsOnlyKeys(nodes.keySet());
		assertThat(limit.sentence()).startsWith("server-bound: the busiest server (127.0.0.1:7000) was busy 90%");
	}

	@Test
	void anAppAndServersThatFillTheCoresTheyShareAreJudgedByWhoUsedMore() {
		// 2 cores: the app 1.2 of them, three local servers 0.7 between them; no one
		// thread near a whole core.
		Map<String, Double> nodes = Map.of("127.0.0.1:7000", 0.3, "127.0.0.1:7001", 0.2, "127.0.0.1:7002", 0.2);
		Bottleneck limit = judge(pass(1_000, 1_200, 600, 500, nodes, true), 2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
		assertThat(limit.evidence().processBusy()).isEqualTo(0.6);
		assertThat(limit.evidence().processors()).isEqualTo(2);
		assertThat(limit.evidence().serversOnThisMachine()).isTrue();
		assertThat(limit.sentence()).isEqualTo("client-bound: this machine's 2 processors were 95% busy (the app used"
				+ " 1.20 cores, Redis 0.70); the app on processors of its own, or instances on other machines, would go"
				+ " faster");
		// The same figures with the servers elsewhere: the app alone did not fill this
		// machine, so the sides took turns.
		Bottleneck remote = judge(pass(1_000, 1_200, 600, 500, nodes, false), 2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(remote.what()).isEqualTo(Bottleneck.What.ROUND_TRIP);
		assertThat(remote.sentence()).isEqualTo("round-trip-bound: each batch of 100 waited for its replies before the"
				+ " next was sent, so the client and the server took turns and neither was busy all of the pass, with"
				+ " the sending thread 60% busy and the busiest server (127.0.0.1:7000) 30% busy; its 1,000 round trips"
				+ " of 0.05 ms (median of loop) were 5% of it; more clients, whose batches overlap, or larger batches"
				+ " would go faster");
	}

	@Test
	void aMillionPipelinedOnSixteenIdleProcessorsIsRoundTripBound() {
		// 1,000,000 SETs in 100 batches of 10,000 in 2 s: no thread and no server near a
		// whole core, the machine an eighth busy; each side waited on the other.
		Bottleneck.Measured pass = new Bottleneck.Measured(2_000 * MS, 2_000 * MS, 3_000 * MS, 0.12, 1_400 * MS,
				1_100 * MS, 2_000 * MS, Map.of("127.0.0.1:6379", 1.1), true);
		Bottleneck limit = Bottleneck.judge(new Bottleneck.Inputs(pass, 16, 100, 10_000, 1, 0, 500_000, false),
				new LoopCeiling.RoundTrip(0.04, "median of 3 PINGs before the run"));
		assertThat(limit.what()).isEqualTo(Bottleneck.What.ROUND_TRIP);
		assertThat(limit.what().label()).isEqualTo("round-trip");
		// As a job's record keeps it: read back the same, without the inputs.
		JsonMapper json = JsonMapper.builder().build();
		assertThat(json.readValue(json.writeValueAsString(limit), Bottleneck.class))
			.isEqualTo(new Bottleneck(limit.what(), limit.evidence(), limit.sentence(), null));
		assertThat(limit.sentence()).isEqualTo("round-trip-bound: each batch of 10,000 waited for its replies before"
				+ " the next was sent, so the client and the server took turns and neither was busy all of the pass,"
				+ " with the sending thread 70% busy and the server 55% busy; its 100 round trips of 0.04 ms (median of"
				+ " 3 PINGs before the run) were 0% of it; more clients, whose batches overlap, or larger batches would"
				+ " go faster");
		// One batch has no next: it went out, ran and came back in turn.
		Bottleneck one = Bottleneck.judge(new Bottleneck.Inputs(pass, 16, 1, 10_000, 1, 0, 500_000, false),
				new LoopCeiling.RoundTrip(0.04, "median of loop"));
		assertThat(one.sentence()).startsWith("round-trip-bound: its one batch of 10,000 was sent, run and answered in"
				+ " turn, so the client and the server took turns");
	}

	@Test
	void aShortPassWhoseOwnThreadsFillTheMachineIsJudgedByThem() {
		// 9 ms, too short to read the process: the sending thread, Lettuce's and a local
		// server alone used 1.9 of 2 processors.
		Bottleneck limit = judge(pass(9, -1, 7, 5, Map.of("127.0.0.1:6379", 0.0054), true), 2, 1, 1, 0.05, 0, 1e6);
		assertThat(limit.evidence().processBusy()).isNull();
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
		assertThat(limit.sentence()).startsWith("client-bound: this machine's 2 processors were 97% busy (the app used"
				+ " at least 1.33 cores, Redis 0.60)");
	}

	@Test
	void onlyWhenTheFiguresLeaveMostOfThePassUnaccountedForIsItUndetermined() {
		// A quarter of a core here and there in a whole second: something else had the
		// time.
		Bottleneck limit = judge(pass(1_000, 300, 150, 100, Map.of("127.0.0.1:6379", 0.1), true), 2, 1_000, 1, 0.05, 0,
				1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.UNDETERMINED);
		assertThat(limit.sentence()).isEqualTo("undetermined: no figure reached its threshold (the sending thread 15%"
				+ " busy, the server 10% busy, round trips 5% of the pass) and together they leave most of the pass"
				+ " unaccounted for: the time went elsewhere (pauses, scheduling or other work on this machine)");
	}

	@Test
	void aPaceWhoseNextRoundTripFellDueAfterTheLimitIsWhatHeldItBelowItsRate() {
		// rate=2000, duration=1, batches of 1,000: the second batch fell due at the
		// limit.
		Bottleneck.Measured pass = pass(1_000, 20, 8, 5, Map.of("127.0.0.1:6379", 0.004), true);
		Bottleneck limit = Bottleneck.judge(new Bottleneck.Inputs(pass, 2, 1, 1_000, 1, 2_000, 1_000, true),
				new LoopCeiling.RoundTrip(0.05, LoopCeiling.FROM_PINGS));
		assertThat(limit.what()).isEqualTo(Bottleneck.What.RATE);
		assertThat(limit.sentence()).startsWith("rate-bound: paced at 2,000 commands/s, its next round trip fell due"
				+ " only after the time limit, so it reached 1,000 a second, with the sending thread 1% busy");
		// Behind its pace when time was up: the pace did not hold it back.
		Bottleneck behind = Bottleneck.judge(new Bottleneck.Inputs(pass, 2, 1, 1_000, 1, 2_000, 1_000, false),
				new LoopCeiling.RoundTrip(0.05, LoopCeiling.FROM_PINGS));
		assertThat(behind.what()).isNotEqualTo(Bottleneck.What.RATE);
	}

	@Test
	void theAnswersRoundTripJudgesThePassAgainUnlessItWasReadBackFromJson() {
		// A comparison's pipeline judged before its loop ran, with no PINGs: then at the
		// loop's 2 ms, 500 round trips are the whole second.
		Bottleneck.Inputs inputs = new Bottleneck.Inputs(
				pass(1_000, 300, 150, 100, Map.of("127.0.0.1:6379", 0.1), true), 2, 500, 100, 1, 0, 1e5, false);
		Bottleneck before = Bottleneck.judge(inputs, new LoopCeiling.RoundTrip(0, LoopCeiling.FROM_PINGS));
		assertThat(before.what()).isEqualTo(Bottleneck.What.UNDETERMINED);
		Bottleneck after = before.at(new LoopCeiling.RoundTrip(2, "median of loop"));
		assertThat(after.what()).isEqualTo(Bottleneck.What.NETWORK);
		assertThat(after.evidence().roundTripMillis()).isEqualTo(2.0);
		assertThat(after.sentence()).contains("500 round trips of 2 ms (median of loop)");
		Bottleneck readBack = new Bottleneck(before.what(), before.evidence(), before.sentence(), null);
		assertThat(readBack.at(new LoopCeiling.RoundTrip(2, "median of loop"))).isSameAs(readBack);
		// The inputs stay in this process: the answer holds what, evidence and sentence.
		JsonMapper json = JsonMapper.builder().build();
		assertThat(json.readTree(json.writeValueAsString(after)).propertyNames()).containsExactly("what", "evidence",
				"sentence");
	}

	@Test
	void localServersThatUseMoreOfTheSharedCoresAreTheServer() {
		Bottleneck limit = judge(pass(1_000, 700, 500, 400, Map.of("127.0.0.1:6379", 0.8, "127.0.0.1:6380", 0.5), true),
				2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.SERVER);
		assertThat(limit.sentence()).startsWith(
				"server-bound: this machine's 2 processors were 100% busy (the app used 0.70 cores, Redis 1.30)");
	}

	@Test
	void aMachineTheOsSaysWasFullIsJudgedWithWhatElseRanOnIt() {
		Map<String, Double> server = Map.of("127.0.0.1:6379", 0.5);
		// The OS: 2 processors 98% busy; the app 1.1 of them, Redis 0.5, other work 0.36.
		Bottleneck.Measured busy = new Bottleneck.Measured(1_000 * MS, 1_000 * MS, 1_100 * MS, 0.98, 700 * MS, 400 * MS,
				1_000 * MS, server, true);
		Bottleneck limit = judge(busy, 2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
		assertThat(limit.evidence().machineBusy()).isEqualTo(0.98);
		assertThat(limit.sentence()).startsWith("client-bound: this machine's 2 processors were 98% busy (the app used"
				+ " 1.10 cores, Redis 0.50, other work 0.36)");
		// Other builds on the same 2 cores: most of the machine was theirs.
		Bottleneck.Measured crowded = new Bottleneck.Measured(1_000 * MS, 1_000 * MS, 500 * MS, 0.99, 400 * MS,
				300 * MS, 1_000 * MS, Map.of("127.0.0.1:6379", 0.3), true);
		Bottleneck shared = judge(crowded, 2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(shared.what()).isEqualTo(Bottleneck.What.UNDETERMINED);
		assertThat(shared.sentence()).contains("other work 1.18").contains("these figures measure a shared machine");
		// A machine with processors to spare is not the limit, whatever the app used: the
		// sides took turns.
		Bottleneck.Measured idle = new Bottleneck.Measured(1_000 * MS, 1_000 * MS, 1_000 * MS, 0.6, 400 * MS, 300 * MS,
				1_000 * MS, Map.of("127.0.0.1:6379", 0.3), true);
		assertThat(judge(idle, 2, 1_000, 1, 0.05, 0, 1e6).what()).isEqualTo(Bottleneck.What.ROUND_TRIP);
	}

	@Test
	void figuresThatWereNotReadAreLeftOut() {
		// Jedis (no Lettuce thread), no thread CPU clock, INFO unanswered.
		Bottleneck limit = judge(new Bottleneck.Measured(500 * MS, 500 * MS, -1, -1, -1, -1, 500 * MS, Map.of(), false),
				2, 0, 1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.UNDETERMINED);
		Bottleneck.Evidence evidence = limit.evidence();
		assertThat(List.of(evidence)).allSatisfy((e) -> {
			assertThat(e.sendingThreadBusy()).isNull();
			assertThat(e.eventLoopBusy()).isNull();
			assertThat(e.processBusy()).isNull();
			assertThat(e.machineBusy()).isNull();
			assertThat(e.serverBusy()).isNull();
			assertThat(e.serversOnThisMachine()).isNull();
			assertThat(e.roundTrips()).isNull();
			assertThat(e.rateAsked()).isNull();
		});
		assertThat(limit.sentence()).contains("the sending thread not read, the server not read");
		// A pass too short for the machine's figures says so.
		assertThat(judge(pass(60, 40, 10, 5, Map.of("127.0.0.1:6379", 0.01), true), 2, 60, 1, 0.05, 0, 1e6).sentence())
			.endsWith("a pass of at least 100 ms would weigh the machine's processors too");
	}

	@Test
	void onlyLoopbackAddressesAreThisMachine() {
		assertThat(Bottleneck.local(List.of("127.0.0.1:6379", "127.0.0.1:7001"))).isTrue();
		assertThat(Bottleneck.local(List.of("localhost:6379", "[::1]:6379"))).isTrue();
		assertThat(Bottleneck.local(List.of("127.0.0.1:6379", "10.0.0.5:6379"))).isFalse();
		assertThat(Bottleneck.local(List.of("master:6379"))).isFalse();
		assertThat(Bottleneck.local(List.of())).isFalse();
	}

}
