package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

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

	@Test
	void aPassTooShortToJudgeIsUndetermined() {
		Bottleneck limit = Bottleneck.judge(pass(12, 20, 12, 5, Map.of("127.0.0.1:6379", 0.012), true), 2, 1, 1, 0.05,
				0, 80_000);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.UNDETERMINED);
		assertThat(limit.sentence()).startsWith("undetermined: the pass took 12 ms, too short to judge");
		// Its figures are still there, but not the process's, read in 10 ms ticks.
		assertThat(limit.evidence().sendingThreadBusy()).isEqualTo(1.0);
		assertThat(limit.evidence().processBusy()).isNull();
	}

	@Test
	void aRateThatWasHeldIsWhatHeldThePassBack() {
		Bottleneck limit = Bottleneck.judge(pass(5_000, 300, 150, 100, Map.of("127.0.0.1:6379", 0.1), true), 2, 10_000,
				1, 0.05, 2_000, 1_999.2);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.RATE);
		assertThat(limit.evidence().rateAsked()).isEqualTo(2_000);
		assertThat(limit.evidence().rateAchieved()).isEqualTo(1_999.2);
		assertThat(limit.sentence()).isEqualTo("rate-bound: the pass held the 2,000 commands/s asked for (1,999"
				+ " reached), with the sending thread 3% busy and the server 2% busy; a higher rate, or none, would go"
				+ " faster");
	}

	@Test
	void aRateThatWasNotHeldLeavesTheJudgementToTheOtherFigures() {
		Bottleneck limit = Bottleneck.judge(pass(1_000, 1_000, 970, -1, Map.of("127.0.0.1:6379", 0.3), true), 2, 100, 1,
				0.05, 1_000_000, 800_000);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
	}

	@Test
	void waitingOnRoundTripsForMostOfThePassIsTheNetwork() {
		// A loop of 10,000 through a relay adding 2 ms: 20.5 s, 20 s of it waiting.
		Bottleneck limit = Bottleneck.judge(pass(20_500, 900, 400, 300, Map.of("127.0.0.1:6379", 0.2), true), 2, 10_000,
				1, 2.0, 0, 487.8);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.NETWORK);
		assertThat(limit.evidence().roundTripWait()).isEqualTo(0.976);
		assertThat(limit.evidence().roundTrips()).isEqualTo(10_000);
		assertThat(limit.evidence().roundTripMillis()).isEqualTo(2.0);
		assertThat(limit.sentence()).isEqualTo("network-bound: waiting on 10,000 round trips of 2 ms took 98% of the"
				+ " pass, with the sending thread 2% busy and the server 1% busy; fewer round trips (a pipeline or larger"
				+ " batches) would go faster");
	}

	@Test
	void aRoundTripCannotWaitLongerThanThePassItIsIn() {
		// A PING slower than the pass's own round trips: the wait is the whole pass, no
		// more.
		Bottleneck limit = Bottleneck.judge(pass(1_000, 300, 100, 100, Map.of("127.0.0.1:6379", 0.1), true), 2, 1_000,
				1, 2.0, 0, 1e6);
		assertThat(limit.evidence().roundTripWait()).isEqualTo(1.0);
	}

	@Test
	void clientsShareTheRoundTripsTheyWaitOnSideBySide() {
		// 4 clients, 10,000 round trips between them: 2,500 each of 2 ms in 5.1 s.
		Bottleneck limit = Bottleneck.judge(pass(5_100, 900, 400, 300, Map.of("127.0.0.1:6379", 0.2), true), 2, 10_000,
				4, 2.0, 0, 1960);
		assertThat(limit.evidence().roundTripWait()).isEqualTo(0.98);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.NETWORK);
	}

	@Test
	void aSendingThreadBusyMostOfThePassIsTheClient() {
		Bottleneck limit = Bottleneck.judge(pass(1_000, 1_300, 970, 400, Map.of("127.0.0.1:6379", 0.38), false), 2,
				1_000, 1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
		assertThat(limit.evidence().sendingThreadBusy()).isEqualTo(0.97);
		assertThat(limit.evidence().serverBusy()).isEqualTo(0.38);
		assertThat(limit.evidence().roundTripWait()).isEqualTo(0.05);
		assertThat(limit.sentence()).isEqualTo("client-bound: the sending thread was busy 97% of the pass while the"
				+ " server was 38% busy; more clients or more instances would go faster");
	}

	@Test
	void lettucesEventLoopCountsAsClient() {
		Bottleneck limit = Bottleneck.judge(pass(1_000, 1_400, 500, 920, Map.of("127.0.0.1:6379", 0.6), true), 2, 1_000,
				1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
		assertThat(limit.sentence()).startsWith("client-bound: Lettuce's event loop was busy 92% of the pass");
	}

	@Test
	void aServerBusierThanTheClientIsTheServer() {
		Bottleneck limit = Bottleneck.judge(pass(1_000, 900, 400, 300, Map.of("127.0.0.1:6379", 0.96), true), 2, 1_000,
				1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.SERVER);
		assertThat(limit.sentence()).isEqualTo("server-bound: the server was busy 96% of the pass while the sending"
				+ " thread was 40% busy; cheaper commands, or more masters in a cluster, would go faster");
	}

	@Test
	void onAClusterTheBusiestNodeSpeaksForTheServersAndEachIsListed() {
		Map<String, Double> nodes = Map.of("127.0.0.1:7000", 0.9, "127.0.0.1:7001", 0.4, "127.0.0.1:7002", 0.3);
		Bottleneck limit = Bottleneck.judge(pass(1_000, 900, 400, 300, nodes, true), 2, 1_000, 1, 0.05, 0, 1e6);
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
		Bottleneck limit = Bottleneck.judge(pass(1_000, 1_200, 600, 500, nodes, true), 2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
		assertThat(limit.evidence().processBusy()).isEqualTo(0.6);
		assertThat(limit.evidence().processors()).isEqualTo(2);
		assertThat(limit.evidence().serversOnThisMachine()).isTrue();
		assertThat(limit.sentence()).isEqualTo("client-bound: this machine's 2 processors were 95% busy (the app used"
				+ " 1.20 cores, Redis 0.70); the app on processors of its own, or instances on other machines, would go"
				+ " faster");
		// The same figures with the servers elsewhere: the app alone did not fill this
		// machine.
		Bottleneck remote = Bottleneck.judge(pass(1_000, 1_200, 600, 500, nodes, false), 2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(remote.what()).isEqualTo(Bottleneck.What.UNDETERMINED);
		assertThat(remote.sentence()).startsWith("undetermined: no figure reached its threshold (the sending thread 60%"
				+ " busy, the busiest server (127.0.0.1:7000) 30% busy, round trips 5% of the pass)");
	}

	@Test
	void localServersThatUseMoreOfTheSharedCoresAreTheServer() {
		Bottleneck limit = Bottleneck.judge(
				pass(1_000, 700, 500, 400, Map.of("127.0.0.1:6379", 0.8, "127.0.0.1:6380", 0.5), true), 2, 1_000, 1,
				0.05, 0, 1e6);
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
		Bottleneck limit = Bottleneck.judge(busy, 2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(limit.what()).isEqualTo(Bottleneck.What.CLIENT);
		assertThat(limit.evidence().machineBusy()).isEqualTo(0.98);
		assertThat(limit.sentence()).startsWith("client-bound: this machine's 2 processors were 98% busy (the app used"
				+ " 1.10 cores, Redis 0.50, other work 0.36)");
		// Other builds on the same 2 cores: most of the machine was theirs.
		Bottleneck.Measured crowded = new Bottleneck.Measured(1_000 * MS, 1_000 * MS, 500 * MS, 0.99, 400 * MS,
				300 * MS, 1_000 * MS, Map.of("127.0.0.1:6379", 0.3), true);
		Bottleneck shared = Bottleneck.judge(crowded, 2, 1_000, 1, 0.05, 0, 1e6);
		assertThat(shared.what()).isEqualTo(Bottleneck.What.UNDETERMINED);
		assertThat(shared.sentence()).contains("other work 1.18").contains("these figures measure a shared machine");
		// A machine with processors to spare is not the limit, whatever the app used.
		Bottleneck.Measured idle = new Bottleneck.Measured(1_000 * MS, 1_000 * MS, 1_000 * MS, 0.6, 400 * MS, 300 * MS,
				1_000 * MS, Map.of("127.0.0.1:6379", 0.3), true);
		assertThat(Bottleneck.judge(idle, 2, 1_000, 1, 0.05, 0, 1e6).what()).isEqualTo(Bottleneck.What.UNDETERMINED);
	}

	@Test
	void figuresThatWereNotReadAreLeftOut() {
		// Jedis (no Lettuce thread), no thread CPU clock, INFO unanswered.
		Bottleneck limit = Bottleneck.judge(
				new Bottleneck.Measured(500 * MS, 500 * MS, -1, -1, -1, -1, 500 * MS, Map.of(), false), 2, 0, 1, 0.05,
				0, 1e6);
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
		assertThat(Bottleneck.judge(pass(60, 40, 30, 20, Map.of("127.0.0.1:6379", 0.01), true), 2, 60, 1, 0.05, 0, 1e6)
			.sentence()).endsWith("a pass of at least 100 ms would weigh the machine's processors too");
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
