package dev.pipelininglab.run;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import dev.pipelininglab.redis.RouteCache;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One request of a million pipelined SETs completes with the default heap and command
 * timeout, leaves a million verified keys, and rides one pooled connection instead of
 * opening one per batch; and it costs the Redis it measures little beyond its million
 * SETs, as Redis' own {@code INFO commandstats} counts them: everything else (warm-up,
 * read-back, expiry, the INFO reads around its pass) stays under 1.3 N + 20,000 commands
 * the first run after start (the app's own warm-up, not the tests' tenth of it), and
 * under N + 20,000 once warm, since the read-back gives each key its expiry (GETEX). A
 * run with its own {@code ttl} keeps it.
 */
@SpringBootTest(
		properties = { "lab.warm-up.round-trips=1000", "lab.warm-up.items=10000", "lab.warm-up.jit-items=300000" })
@SharedRedis
@SlowTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MillionCommandRunTests {

	private static final long N = 1_000_000;

	@Autowired
	RunService runs;

	@Autowired
	RouteCache connections;

	@Autowired
	StandaloneRedis server;

	private RedisClient client;

	private StatefulRedisConnection<String, String> observer;

	@BeforeAll
	void observe() {
		this.client = RedisClient.create("redis://" + this.server.host() + ":" + this.server.port());
		this.observer = this.client.connect();
	}

	@AfterAll
	void stopObserving() {
		this.observer.close();
		this.client.shutdown();
		this.server.flushAll();
	}

	@Test
	@Order(1)
	void theFirstMillionAfterStartSendsAtMostOnePointThreeNPlusTwentyThousandCommandsBesidesItsSets() {
		this.server.flushAll();
		Map<String, Long> before = commandStats();

		RunResult result = this.runs.run(million(), RunObserver.NONE);

		Map<String, Long> sent = since(before);
		long besides = sent.values().stream().mapToLong(Long::longValue).sum() - N;
		System.out.printf("[cost] first /pipeset/%d after start: %d besides its SETs, %s%n", N, besides, sent);
		assertThat(besides).as(sent.toString()).isLessThanOrEqualTo(13 * N / 10 + 20_000);
		assertThat(result.counts().verified()).isEqualTo(N);
		assertThat(keyspace()).as("every key with its expiry, no warm-up key left")
			.isEqualTo("keys=" + N + ",expires=" + N);
		assertThat(sync().ttl("pipelining-lab:key:0")).isBetween(3500L, 3600L);
		assertThat(sync().ttl("pipelining-lab:key:" + (N - 1))).isBetween(3500L, 3600L);
	}

	@Test
	@Order(2)
	void millionPipelinedSetsInBatchesOnOneConnection() {
		this.server.flushAll();
		long connectionsBefore = connectionsReceived();
		Map<String, Long> before = commandStats();

		RunResult result = this.runs.run(million(), RunObserver.NONE);

		Map<String, Long> sent = since(before);
		long besides = sent.values().stream().mapToLong(Long::longValue).sum() - N;
		System.out.printf("[cost] warm /pipeset/%d: %d besides its SETs, %s%n", N, besides, sent);
		assertThat(besides).as(sent.toString()).isLessThanOrEqualTo(N + 20_000);
		assertThat(connectionsReceived()).isEqualTo(connectionsBefore);
		assertThat(result.ran().batches()).isEqualTo(100);
		assertThat(result.counts().written()).isEqualTo(N);
		assertThat(result.counts().verified()).isEqualTo(N);
		assertThat(result.notes().sample()).containsExactly("value-0", "value-1", "value-2", "value-3", "value-4");
		assertThat(keyspace()).isEqualTo("keys=" + N + ",expires=" + N);
	}

	@Test
	@Order(3)
	void aRunWithItsOwnTtlKeepsItWhenReadBack() {
		this.server.flushAll();
		long count = 50_000;

		RunResult result = this.runs
			.run(with(Specs.of(Operation.SET, Mode.PIPELINED, this.connections.defaultPolicy(), count, 10_000, 5),
					Duration.ofSeconds(60)), RunObserver.NONE);

		assertThat(result.counts().verified()).isEqualTo(count);
		assertThat(keyspace()).isEqualTo("keys=" + count + ",expires=" + count);
		for (long i = 0; i < count; i += 997) {
			assertThat(sync().ttl("pipelining-lab:key:" + i)).as("key %d", i).isBetween(1L, 60L);
		}
	}

	private RunSpec million() {
		return Specs.of(Operation.SET, Mode.PIPELINED, this.connections.defaultPolicy(), N, 10_000, 5);
	}

	private static RunSpec with(RunSpec spec, Duration ttl) {
		return new RunSpec(spec.operation(), spec.mode(), spec.flushPolicy(), spec.count(), spec.batchSize(),
				spec.sample(), ttl, null, 1, spec.workload(), spec.senders(), null);
	}

	private RedisCommands<String, String> sync() {
		return this.observer.sync();
	}

	/** Calls per command since {@code before}, the reading's own INFO left out. */
	private Map<String, Long> since(Map<String, Long> before) {
		Map<String, Long> after = commandStats();
		Map<String, Long> sent = new TreeMap<>();
		after.forEach((command, calls) -> {
			long more = calls - before.getOrDefault(command, 0L) - (command.equals("info") ? 1 : 0);
			if (more > 0) {
				sent.put(command, more);
			}
		});
		return sent;
	}

	private Map<String, Long> commandStats() {
		Map<String, Long> calls = new TreeMap<>();
		sync().info("commandstats").lines().filter((line) -> line.startsWith("cmdstat_")).forEach((line) -> {
			String command = line.substring("cmdstat_".length(), line.indexOf(':'));
			String field = line.substring(line.indexOf("calls=") + 6);
			calls.put(command, Long.parseLong(field.substring(0, field.indexOf(','))));
		});
		return calls;
	}

	private String keyspace() {
		return sync().info("keyspace")
			.lines()
			.filter((line) -> line.startsWith("db0:"))
			.map((line) -> line.substring(4, line.indexOf(",avg_ttl")))
			.findFirst()
			.orElse("empty");
	}

	private long connectionsReceived() {
		return sync().info("stats")
			.lines()
			.filter((line) -> line.startsWith("total_connections_received:"))
			.mapToLong((line) -> Long.parseLong(line.substring(line.indexOf(':') + 1).trim()))
			.findFirst()
			.orElseThrow();
	}

}
