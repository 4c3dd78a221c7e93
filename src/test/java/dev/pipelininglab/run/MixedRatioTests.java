package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.redis.RouteCache;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Sharing;
import dev.pipelininglab.redis.Topology;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratio=1:10}: every per-item variant sends exactly one SET per ten GETs, as the
 * server counts them in {@code INFO commandstats}, its GETs hit what its SETs wrote as
 * the server's {@code keyspace_hits} says, and every key a SET wrote reads back. The
 * timed work is driven here without warm-up or read-back, so the server's counts are the
 * variant's alone.
 */
@SlowTest
@SpringBootTest
@SharedRedis
class MixedRatioTests {

	private static final long COUNT = 11_000;

	private static final int BATCH = 550;

	@Autowired
	List<BatchRunner> runners;

	@Autowired
	RouteCache connections;

	@Autowired
	KeySpace keys;

	@Autowired
	RunKeys data;

	@Autowired
	Topology topology;

	@Autowired
	StandaloneRedis redis;

	@Test
	void everyPerItemVariantSendsOneSetPerTenGetsAndItsGetsHitWhatItsSetsWrote() {
		Map<Mode, BatchRunner> byMode = this.runners.stream()
			.collect(Collectors.toMap(BatchRunner::mode, Function.identity()));
		RedisServerProcess server = this.redis.process();
		for (Variant variant : List.of(new Variant(Mode.LOOP, null, Connector.LETTUCE),
				new Variant(Mode.PIPELINED, null, Connector.LETTUCE), new Variant(Mode.ASYNC, null, Connector.LETTUCE),
				new Variant(Mode.TRANSACTION, null, Connector.LETTUCE),
				new Variant(Mode.PIPELINED_TRANSACTION, null, Connector.LETTUCE),
				new Variant(Mode.REACTIVE, null, Connector.LETTUCE), new Variant(Mode.LOOP, null, Connector.JEDIS),
				new Variant(Mode.PIPELINED, null, Connector.JEDIS),
				new Variant(Mode.TRANSACTION, null, Connector.JEDIS))) {
			Connector connector = variant.connector();
			Sharing sharing = (connector == Connector.JEDIS) ? Sharing.POOLED : Sharing.SHARED;
			RunSpec spec = new RunSpec(Operation.MIXED, variant.mode(), this.connections.defaultPolicy(), COUNT, BATCH,
					0, null, null, 1, Specs.plain(), new RunSpec.Senders(connector, sharing, 1), null);
			BatchRunner runner = byMode.get(variant.mode());
			assertThat(runner.unsupported(spec, this.topology)).as(variant.label()).isNull();
			this.redis.flushAll();
			long sets = NodeStats.calls(server, "SET");
			long gets = NodeStats.calls(server, "GET");
			long hits = NodeStats.keyspaceHits(server);
			long misses = NodeStats.keyspaceMisses(server);
			ClientThreads.Outcome outcome;
			try (RouteCache.Lease lease = this.connections.lease(connector, sharing, spec.flushPolicy(), null, null)) {
				Pass pass = new Pass(spec, this.keys, lease.route());
				outcome = ClientThreads.run(spec, runner.perRoundTrip(BATCH), Latency.Per.BATCH,
						(from, to, replies) -> runner.run(pass, from, to, replies), RunObserver.NONE);
			}
			Tally tally = outcome.tally(0);
			String label = variant.label() + " (" + connector.label() + ")";
			assertThat(NodeStats.calls(server, "SET") - sets).as(label).isEqualTo(1_000);
			assertThat(NodeStats.calls(server, "GET") - gets).as(label).isEqualTo(10_000);
			MixedCommand command = (MixedCommand) Operation.MIXED.command().forRun(spec.workload());
			RunResult.Mix mix = command.mix(outcome, tally, 1, null);
			assertThat(mix).isNotNull();
			assertThat(mix.sets()).isEqualTo(1_000);
			assertThat(mix.gets()).isEqualTo(10_000);
			assertThat(mix.hits()).as(label).isEqualTo(NodeStats.keyspaceHits(server) - hits).isEqualTo(10_000);
			assertThat(mix.misses()).as(label).isEqualTo(NodeStats.keyspaceMisses(server) - misses).isZero();
			ReadBack readBack = this.data.verify(command, this.keys, List.of(new ClientThreads.Reach(0, COUNT)), 10_000,
					0, new Tally(0), RunObserver.NONE, null);
			assertThat(readBack.verified()).as(label).isEqualTo(1_000);
			assertThat(NodeStats.dbsize(server)).as(label).isEqualTo(1_000);
		}
	}

	@Test
	void theSequenceIsTheSameForEveryItemIndexAndGetsReadAnEarlierSetOfTheirCycle() {
		Ratio ratio = new Ratio(3, 5);
		assertThat(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L).stream().map(ratio::isWrite).toList())
			.containsExactly(true, true, true, false, false, false, false, false, true);
		assertThat(List.of(3L, 4L, 5L, 6L, 7L, 11L).stream().map(ratio::keyItem).toList()).containsExactly(0L, 1L, 2L,
				0L, 1L, 8L);
		assertThat(ratio.writesIn(10)).isEqualTo(5);
		assertThat(ratio.writeItem(3)).isEqualTo(8);
		assertThat(Ratio.parse("1:10")).contains(Ratio.DEFAULT);
		assertThat(Ratio.parse("0:10")).isEmpty();
		assertThat(Ratio.parse("1:1001")).isEmpty();
		assertThat(Ratio.parse(" 1:10")).isEmpty();
	}

}
