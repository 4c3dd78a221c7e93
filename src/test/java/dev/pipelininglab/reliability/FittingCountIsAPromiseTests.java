package dev.pipelininglab.reliability;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The {@code fittingCount} a refusal names is a promise: on a Redis holding someone
 * else's keys under each eviction policy, a request sized at the count its own refusal
 * named runs, loses none of their keys and makes Redis evict nothing, with everything it
 * stores at its peak counted (every variant's keys, the warm-up's beside them, the
 * buffers of a round trip); a somewhat larger one is refused before it writes a key.
 */
@OwnRedis
@SlowTest
class FittingCountIsAPromiseTests extends MockMvcOnEmptyOwnRedis {

	private static final int FOREIGN_KEYS = 52;

	private static final String EIGHT_VARIANTS = "pipelined,pipelined-buffered-1000,multi-key,multi-key-hashtag,script,"
			+ "async,transaction,jedis-pipelined";

	@ParameterizedTest(name = "{0} under {1}, values of {2} B")
	@CsvSource(delimiter = '|',
			value = { "/pipeset/%d?valueSize=%d | allkeys-lru | 1048576",
					"/pipeset/%d?valueSize=%d | allkeys-random | 16",
					"/compare/set/%d?valueSize=%d&variants=pipelined,async | allkeys-lru | 16",
					"/compare/set/%d?valueSize=%d&variants=" + EIGHT_VARIANTS + " | volatile-lru | 1024",
					"/compare/set/%d?valueSize=%d&variants=" + EIGHT_VARIANTS + " | noeviction | 1048576",
					"/sweep/set/%d?valueSize=%d&batchSizes=100,1000 | volatile-ttl | 16",
					"/compare/get/%d?valueSize=%d&variants=pipelined,multi-key | noeviction | 16" })
	void aRequestOfTheCountItsRefusalNamedLosesNoForeignKey(String uri, String policy, int valueSize) throws Exception {
		long fitting = fittingCount(uri, policy, valueSize);

		String body = send(uri.formatted(fitting, valueSize), 200).getContentAsString();

		assertNothingLost(policy);
		List<Number> evicted = JsonPath.read(body,
				body.contains("\"results\"") ? "$.results[*].server.evictedKeys" : "$..server.evictedKeys");
		assertThat(evicted).isNotEmpty().allSatisfy((each) -> assertThat(each.longValue()).isZero());
	}

	@ParameterizedTest(name = "a job under {0}")
	@CsvSource({ "allkeys-lru", "noeviction" })
	void aJobOfTheCountTheSameRequestsRefusalNamedLosesNoForeignKey(String policy) throws Exception {
		long fitting = fittingCount("/compare/set/%d?valueSize=%d&variants=pipelined,async", policy, 64);

		String id = JsonPath.read(this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"kind": "compare", "operation": "set", "count": %d, "valueSize": 64,
				 "variants": ["pipelined", "async"]}""".formatted(fitting)))
			.andReturn()
			.getResponse()
			.getContentAsString(), "$.id");
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			String record = this.mvc.perform(get("/runs/" + id)).andReturn().getResponse().getContentAsString();
			assertThat(JsonPath.<String>read(record, "$.status")).as(record).isEqualTo("DONE");
		});
		assertNothingLost(policy);
	}

	/**
	 * Sets the server up (a small {@code maxmemory}, {@code policy}, someone else's
	 * keys), asks for far too much, checks that a tenth more (three at least) than the
	 * count the refusal names is refused too before anything is written, and answers that
	 * count.
	 */
	private long fittingCount(String uri, String policy, int valueSize) throws Exception {
		// Large values need room for a batch of them in the buffers beside the keys.
		long room = (valueSize >= 1 << 20) ? 48L << 20 : 12L << 20;
		// Redis shrinks the query buffers an earlier case's large values left on the
		// app's connections in its cron, a client at a time: used_memory first settles,
		// or the two requests below would see different room.
		// Two readings 500 ms apart that agree: the first is taken at once (it only
		// records), not after a first interval spent waiting for nothing.
		AtomicLong last = new AtomicLong(-1);
		await().atMost(Duration.ofSeconds(20))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(500))
			.until(() -> Math.abs(this.admin.usedMemory() - last.getAndSet(this.admin.usedMemory())) < 16 * 1024);
		this.admin.sync().configSet("maxmemory", Long.toString(this.admin.usedMemory() + room));
		this.admin.sync().configSet("maxmemory-policy", policy);
		for (int i = 0; i < FOREIGN_KEYS; i++) {
			if (i % 2 == 0) {
				this.admin.sync().setex("someone:" + i, 3600, "theirs, expiring");
			}
			else {
				this.admin.sync().set("someone:" + i, "theirs");
			}
		}
		// Within lab.limits.max-run-bytes for every variant, and far past any room here.
		long tooMany = Math.min(10_000_000, (4L << 30) / ((long) valueSize * 8));
		DocumentContext refused = json(send(uri.formatted(tooMany, valueSize), 409));
		long fitting = refused.read("$.fittingCount", Long.class);
		assertThat(fitting).as(refused.jsonString()).isPositive();

		// Past the little headroom the count named leaves (docs/reliability.md).
		long larger = fitting + Math.max(3, fitting / 10);
		assertThat(json(send(uri.formatted(larger, valueSize), 409)).<String>read("$.type"))
			.isIn(TYPES + "run-does-not-fit", TYPES + "eviction-risk");
		assertThat(this.admin.sync().dbsize()).as("nothing written by the refused runs").isEqualTo(FOREIGN_KEYS);
		this.evictedBefore = evictedKeys();
		return fitting;
	}

	private long evictedBefore;

	private void assertNothingLost(String policy) {
		for (int i = 0; i < FOREIGN_KEYS; i++) {
			assertThat(this.admin.sync().exists("someone:" + i)).as("someone:%d under %s", i, policy).isEqualTo(1);
		}
		assertThat(evictedKeys()).as("evicted_keys under " + policy).isEqualTo(this.evictedBefore);
	}

	private long evictedKeys() {
		return this.admin.info("stats", "evicted_keys");
	}

}
