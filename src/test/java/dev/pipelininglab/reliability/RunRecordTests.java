package dev.pipelininglab.reliability;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.testsupport.TestLettuce;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * What a run's record is for and what it costs the Redis it measures: it is there, with
 * every key the run may write, before the run writes its first key (so any instance can
 * give those keys an expiry should this one die), and it costs a few commands per run by
 * Redis' own {@code INFO commandstats}, none per progress tick and no look for a cancel
 * flag of a record that does not exist yet.
 */
@SpringBootTest
@SharedRedis
@AutoConfigureMockMvc
class RunRecordTests {

	private static final String OWN = "pipelining-lab:";

	/** What a run writes its keys with; the record and its index have their own. */
	private static final Set<String> WRITES = Set.of("SET", "MSET", "HSET", "RPUSH", "LPUSH", "SADD", "INCR", "EVALSHA",
			"EVAL");

	@Autowired
	StandaloneRedis redis;

	@Autowired
	MockMvc mvc;

	@Autowired
	StringRedisTemplate template;

	@BeforeEach
	void startEmpty() {
		this.redis.flushAll();
	}

	@Test
	void aRunsRecordListsWhatItMayWriteBeforeItsFirstKey() throws Exception {
		AtomicBoolean recorded = new AtomicBoolean();
		try (Monitor monitor = new Monitor(this.redis.host(), this.redis.port(), (command) -> {
			String name = command.get(0).toUpperCase(java.util.Locale.ROOT);
			String key = (command.size() > 1) ? command.get(1) : "";
			if (name.equals("SETEX") && key.startsWith(OWN + "run:")) {
				recorded.set(true);
				return command.get(3).contains("{\"key\":\"" + OWN + "key:<i>\",\"from\":0,\"to\":1000}") ? null
						: "a record without the run's keys";
			}
			// The preflight's samples are removed as soon as they are measured.
			boolean runs = WRITES.contains(name) && !key.contains(":preflight:");
			return (runs && !recorded.get()) ? "written before the record" : null;
		});
				StatefulRedisConnection<String, String> admin = TestLettuce.client()
					.connect(RedisURI.create(this.redis.host(), this.redis.port()))) {
			this.mvc.perform(get("/pipeset/1000"))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.verified").value(1000));
			admin.sync().echo("run-done");
			monitor.awaitMarker("run-done", 10_000);
			assertThat(monitor.violations()).isEmpty();
			assertThat(recorded).isTrue();
		}
	}

	@Test
	void aWarmGetRunCostsItsRecordSixCommandsAndRedisAtMostThirtyBesidesWhatItMeasures() throws Exception {
		run("/pipeset/10");
		Map<String, Long> before = NodeStats.allCalls(this.redis.process());
		run("/pipeset/10");
		Map<String, Long> sent = new TreeMap<>(NodeStats.allCalls(this.redis.process()));
		sent.replaceAll((command, calls) -> calls - before.getOrDefault(command, 0L));
		sent.values().removeIf((calls) -> calls == 0);
		System.out.println("[reliability] a warm /pipeset/10 sent " + sent);
		// The record, the index and the live runs (ZADD twice) and the index's expiry
		// (PEXPIRE); at the end the final record and leaving the live runs. The sweep,
		// not
		// each run, trims the index.
		assertThat(sent).containsEntry("setex", 2L)
			.containsEntry("zadd", 2L)
			.containsEntry("zrem", 1L)
			.doesNotContainKey("zremrangebyscore");
		assertThat(sent.getOrDefault("exists", 0L)).as("EXISTS: at most a probe per key written")
			.isLessThanOrEqualTo(10);
		// Besides its 10 SETs and their read-back with expiry (GETEX), and the test's own
		// ZCARD and INFO commandstats: the warm-up, the round trip, INFO around the pass,
		// the record and the look for other instances' runs beside it.
		// A pass whose route holds more connections than its clients (a connection of the
		// run before, still closing) first waits into the server's next second, with one
		// more CLIENT LIST and TIME: not part of what a run costs.
		long nextSecond = 2 * Math.max(0, sent.getOrDefault("client|list", 0L) - 2);
		long besides = sent.values().stream().mapToLong(Long::longValue).sum() - 10 - sent.getOrDefault("getex", 0L)
				- sent.getOrDefault("zcard", 0L) - 1 - nextSecond;
		assertThat(sent).containsEntry("getex", 10L);
		assertThat(besides).as("commands besides the measured ones: " + sent).isLessThanOrEqualTo(30);
	}

	/** Until its final record is written too, which comes after the answer. */
	private void run(String uri) throws Exception {
		this.mvc.perform(get(uri)).andExpect(status().isOk()).andExpect(jsonPath("$.verified").value(10));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.template.opsForZSet().zCard(OWN + "runs:live"), (live) -> live == 0);
	}

}
