package dev.pipelininglab.reliability;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * A comparison of every default variant with 1 MiB values, on an app that has already run
 * a few things, beside 50 keys of someone else's (half with a TTL), under each eviction
 * policy. 8 MiB under {@code maxmemory} it does not fit even once (each variant's
 * connection keeps a query buffer as large as a value for about a second after sending
 * one, and they add up: the preflight counts them), so it is refused before anything is
 * written; 24 MiB under, the count its refusal names runs with every key read back, and a
 * few more is refused. No foreign key is lost and Redis evicts nothing.
 */
@OwnRedis
@SlowTest
class MebibyteComparisonTests extends MockMvcOnEmptyOwnRedis {

	private static final int MIB = 1 << 20;

	private static final int FOREIGN_KEYS = 50;

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "allkeys-lru", "allkeys-random", "volatile-lru", "volatile-ttl", "noeviction" })
	void theCountItsRefusalNamesRunsWithEveryKeyAndLosesNoForeignKey(String policy) throws Exception {
		send("/pipeset/2000", 200);
		send("/compare/set/200?valueSize=1024", 200);
		send("/pipeset/2?valueSize=" + MIB, 200);
		settle();
		long base = this.admin.usedMemory();
		this.admin.sync().configSet("maxmemory", Long.toString(base + (8 << 20)));
		this.admin.sync().configSet("maxmemory-policy", policy);
		for (int i = 0; i < FOREIGN_KEYS; i++) {
			if (i % 2 == 0) {
				this.admin.sync().setex("someone:" + i, 3600, "theirs, expiring");
			}
			else {
				this.admin.sync().set("someone:" + i, "theirs");
			}
		}
		long keys = keysBesidesRecords();
		long evicted = this.admin.info("stats", "evicted_keys");

		long tight = fittingCount(policy, "8 MiB", keys);
		if (tight > 0) {
			runs(tight);
		}
		else {
			refused(1, keys);
		}
		this.admin.sync().configSet("maxmemory", Long.toString(base + (24 << 20)));
		long roomy = fittingCount(policy, "24 MiB", keys);
		assertThat(roomy).isPositive();
		runs(roomy);
		refused(roomy + 3, keysBesidesRecords());

		for (int i = 0; i < FOREIGN_KEYS; i++) {
			assertThat(this.admin.sync().exists("someone:" + i)).as("someone:%d under %s", i, policy).isEqualTo(1);
		}
		assertThat(this.admin.info("stats", "evicted_keys")).as("evicted_keys under " + policy).isEqualTo(evicted);
	}

	/** The count the refusal of 100 names; the refusal writes nothing. */
	private long fittingCount(String policy, String room, long keys) throws Exception {
		DocumentContext refused = json(send(compare(100), 409));
		long fitting = refused.read("$.fittingCount", Long.class);
		System.out.printf("[reliability] 1 MiB comparison %s under maxmemory, %s: fittingCount %d (%s)%n", room, policy,
				fitting, refused.<String>read("$.detail"));
		assertThat(keysBesidesRecords()).as("nothing written by the refused run").isEqualTo(keys);
		return fitting;
	}

	private void runs(long count) throws Exception {
		String body = send(compare(count), 200).getContentAsString();
		List<Number> verified = JsonPath.read(body, "$.results[*].verified");
		assertThat(verified).as(body)
			.hasSizeGreaterThan(5)
			.allSatisfy((each) -> assertThat(each).isEqualTo((int) count));
	}

	private void refused(long count, long keys) throws Exception {
		assertThat(json(send(compare(count), 409)).<String>read("$.type")).isIn(TYPES + "run-does-not-fit",
				TYPES + "eviction-risk");
		assertThat(keysBesidesRecords()).as("nothing written by the refused run").isEqualTo(keys);
	}

	/**
	 * The keys but the lab's run records: a run's record and its place among live runs
	 * are written once its answer has left, so a count of every key taken just after one
	 * moves.
	 */
	private long keysBesidesRecords() {
		return this.admin.sync().keys("*").stream().filter((key) -> !key.matches(".*:runs?(:.*)?")).count();
	}

	private static String compare(long count) {
		return "/compare/set/" + count + "?valueSize=" + MIB;
	}

	/**
	 * Redis shrinks what large values left in the app's connections' query buffers in its
	 * cron, a client at a time: the limit is set once it has.
	 */
	private void settle() {
		// Two readings 500 ms apart that agree: the first is taken at once (it only
		// records), not after a first interval spent waiting for nothing.
		AtomicLong last = new AtomicLong(-1);
		await().atMost(Duration.ofSeconds(20))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(500))
			.until(() -> Math.abs(this.admin.usedMemory() - last.getAndSet(this.admin.usedMemory())) < 16 * 1024);
	}

}
