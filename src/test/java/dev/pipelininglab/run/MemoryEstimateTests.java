package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.time.Duration;

import dev.pipelininglab.redis.RouteCache;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Preflight;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The preflight's estimate against what a run really adds to {@code used_memory} (client
 * buffers left out, and with the expiry a run's keys get afterwards): within 30% for SET
 * with 16 B, 1 KiB and 16 KiB values and for HSET, SADD, ZADD and LPUSH. Prints the table
 * docs/reliability.md shows.
 */
@SpringBootTest
@OwnRedis
@SlowTest
class MemoryEstimateTests {

	static RedisClient client;

	static StatefulRedisConnection<String, String> admin;

	@Autowired
	RunService runs;

	@Autowired
	Safeguards safeguards;

	@Autowired
	Preflight preflight;

	@Autowired
	KeySpace keys;

	@Autowired
	RouteCache connections;

	@Autowired
	StandaloneRedis redis;

	@BeforeAll
	static void noClientYet() {
		client = RedisClient.create();
	}

	@AfterAll
	static void close() {
		if (admin != null) {
			admin.close();
		}
		client.shutdown();
	}

	@Test
	void theEstimateIsWithin30PercentOfWhatARunAddsToUsedMemory() {
		admin = client.connect(io.lettuce.core.RedisURI.create(this.redis.host(), this.redis.port()));
		List<String> table = new ArrayList<>();
		table.add("| operation | items | value bytes | estimate | used_memory growth | estimate / growth |");
		table.add("|---|---:|---:|---:|---:|---:|");
		List<Double> ratios = new ArrayList<>();
		for (Object[] item : new Object[][] { { Operation.SET, 50_000, 16 }, { Operation.SET, 20_000, 1024 },
				{ Operation.SET, 2_000, 16384 }, { Operation.HSET, 50_000, 16 }, { Operation.SADD, 50_000, 16 },
				{ Operation.ZADD, 50_000, 16 }, { Operation.LPUSH, 50_000, 16 } }) {
			Operation operation = (Operation) item[0];
			int count = (Integer) item[1];
			int valueSize = (Integer) item[2];
			RunSpec spec = new RunSpec(operation, Mode.PIPELINED, this.connections.defaultPolicy(), count, 1000, 0,
					null, null, 1, Workload.of(valueSize, 1, 16L << 20), RunSpec.Senders.DEFAULT, null);
			admin.sync().flushall();
			long estimate = this.preflight.estimate(this.safeguards.demand(spec, List.of(spec), false)).bytes();
			long before = dataMemory();
			this.runs.run(spec, RunObserver.NONE);
			long growth = dataMemory() - before;
			double ratio = (double) estimate / growth;
			ratios.add(ratio);
			table.add(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %.2f |", operation.label(), count,
					valueSize, estimate, growth, ratio));
		}
		admin.sync().flushall();
		System.out.println("[memory estimate]\n" + String.join("\n", table));
		assertThat(ratios).as(String.join("\n", table)).allSatisfy((ratio) -> assertThat(ratio).isBetween(0.7, 1.3));
	}

	@Test
	void aSetOverASmallerKeySpaceIsEstimatedForItsKeysNotItsItems() {
		Workload plain = Workload.of(16, 1, 16L << 20);
		RunSpec everyKey = new RunSpec(Operation.SET, Mode.PIPELINED, this.connections.defaultPolicy(), 50_000, 1000, 0,
				null, null, 1, plain, RunSpec.Senders.DEFAULT, null);
		RunSpec fewKeys = new RunSpec(Operation.SET, Mode.PIPELINED, this.connections.defaultPolicy(), 50_000, 1000, 0,
				null, null, 1, new Workload(16, 1, 16L << 20, null, 0, null, Ratio.DEFAULT,
						new KeyWalk(500, KeyWalk.Pattern.UNIFORM, 1), 0),
				RunSpec.Senders.DEFAULT, null);
		long all = this.preflight.estimate(this.safeguards.demand(everyKey, List.of(everyKey), false)).bytes();
		long few = this.preflight.estimate(this.safeguards.demand(fewKeys, List.of(fewKeys), false)).bytes();
		// 500 keys of 50,000, and a little more for their longer names.
		assertThat(few).isPositive().isLessThan(all / 50);
	}

	/**
	 * used_memory less what client connections hold (query and reply buffers), once it
	 * has settled: Redis updates its clients' share in its cron, a client at a time, so
	 * right after a run it can lag by a batch's query buffer (16 MB here). Settled is two
	 * readings 250 ms apart that agree; the first is taken at once.
	 */
	private static long dataMemory() {
		AtomicLong last = new AtomicLong(-1);
		await().atMost(Duration.ofSeconds(10))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(250))
			.until(() -> {
				String info = admin.sync().info("memory");
				long now = field(info, "used_memory") - field(info, "mem_clients_normal");
				return Math.abs(now - last.getAndSet(now)) < 16 * 1024;
			});
		return last.get();
	}

	private static long field(String info, String name) {
		return info.lines()
			.filter((line) -> line.startsWith(name + ":"))
			.mapToLong((line) -> Long.parseLong(line.substring(name.length() + 1).trim()))
			.findFirst()
			.orElseThrow();
	}

}
