package dev.pipelininglab.reliability;

import java.time.Duration;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.PauseNotes;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * On a Redis that holds someone else's keys, a run that would not fit is refused before
 * it writes anything: under {@code allkeys-lru} as an eviction risk (their keys stay),
 * under {@code noeviction} as a run that does not fit (not one key written), and a run
 * that fits leaves its keys with an expiry.
 */
@OwnRedis
class SharedRedisSafetyTests extends MockMvcOnEmptyOwnRedis {

	@Test
	void aRunThatWouldMakeAllKeysLruEvictOtherKeysIsRefusedAndTheirKeysStay() throws Exception {
		this.admin.sync().configSet("maxmemory", "30mb");
		this.admin.sync().configSet("maxmemory-policy", "allkeys-lru");
		writeCanaries(this.admin);

		DocumentContext problem = problem("/pipeset/200000?valueSize=1000", 409);

		assertThat(problem.<String>read("$.type")).isEqualTo(TYPES + "eviction-risk");
		assertThat(problem.<String>read("$.detail")).contains("allkeys-lru", "lab.safety.allow-eviction");
		assertThat(problem.<String>read("$.maxmemoryPolicy")).isEqualTo("allkeys-lru");
		assertThat(problem.read("$.estimateBytes", Long.class)).isGreaterThan(200_000L * 1000);
		assertThat(problem.read("$.freeBytes", Long.class)).isLessThan(30L << 20);
		assertThat(this.admin.sync().dbsize()).as("the canaries and nothing else").isEqualTo(200);
		for (int i = 0; i < 200; i++) {
			assertThat(this.admin.sync().strlen("canary:" + i)).as("canary:" + i).isEqualTo(10_000);
		}
	}

	@Test
	void aRunLargerThanASmallMaxmemoryIsRefusedBeforeItWritesAKey() throws Exception {
		this.admin.sync().configSet("maxmemory", Long.toString(this.admin.usedMemory() + (8 << 20)));
		this.admin.sync().set("someone:else", "theirs");

		DocumentContext problem = problem("/pipeset/100000?valueSize=1000", 409);

		assertThat(problem.<String>read("$.type")).isEqualTo(TYPES + "run-does-not-fit");
		assertThat(problem.<String>read("$.detail")).contains("refused before writing anything", "count of at most");
		assertThat(problem.<String>read("$.limit")).isEqualTo("maxmemory");
		long fitting = problem.read("$.fittingCount", Long.class);
		assertThat(fitting).isBetween(1_000L, 8_000L);
		assertThat(this.admin.sync().dbsize()).as("nothing written, the sample removed").isEqualTo(1);
		// The count it names does fit.
		ok("/pipeset/" + (fitting / 2) + "?valueSize=1000");
	}

	@Test
	void comparisonsAndJobsPassTheSamePreflight() throws Exception {
		this.admin.sync().configSet("maxmemory", Long.toString(this.admin.usedMemory() + (8 << 20)));

		// A GET comparison writes its keys first: refused before that.
		DocumentContext compare = problem("/compare/get/100000?valueSize=1000&variants=pipelined", 409);
		assertThat(compare.<String>read("$.type")).isEqualTo(TYPES + "run-does-not-fit");
		assertThat(problem("/sweep/set/100000?valueSize=1000&batchSizes=100", 409).<String>read("$.type"))
			.isEqualTo(TYPES + "run-does-not-fit");
		assertThat(this.admin.sync().dbsize()).isZero();

		String id = JsonPath.read(this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"operation": "hset", "mode": "pipelined", "count": 100000, "valueSize": 1000}"""))
			.andReturn()
			.getResponse()
			.getContentAsString(), "$.id");
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			String record = this.mvc.perform(get("/runs/" + id)).andReturn().getResponse().getContentAsString();
			assertThat(JsonPath.<String>read(record, "$.status")).as(record).isEqualTo("FAILED");
			assertThat(JsonPath.<String>read(record, "$.problem.type")).isEqualTo(TYPES + "run-does-not-fit");
		});
		assertThat(this.admin.keys("pipelining-lab:hash")).isEmpty();
	}

	@Test
	void volatilePoliciesAreAnEvictionRiskOnlyWhenOtherKeysHaveATtl() throws Exception {
		this.admin.sync().configSet("maxmemory", "30mb");
		this.admin.sync().configSet("maxmemory-policy", "volatile-lru");
		this.admin.sync().set("someone:plain", "theirs");

		assertThat(problem("/pipeset/50000?valueSize=1000", 409).<String>read("$.type"))
			.as("no key with a TTL: Redis could not make room, the run does not fit")
			.isEqualTo(TYPES + "run-does-not-fit");

		this.admin.sync().setex("someone:session", 3600, "theirs, expiring");
		DocumentContext risk = problem("/pipeset/50000?valueSize=1000", 409);
		assertThat(risk.<String>read("$.type")).isEqualTo(TYPES + "eviction-risk");
		assertThat(risk.<String>read("$.detail")).contains("volatile-lru", "outside the lab's prefix");
		assertThat(this.admin.sync().dbsize()).isEqualTo(2);
	}

	@Test
	void keysARunLeavesCarryTheExpiryAndARunWithItsOwnTtlKeepsIt() throws Exception {
		ok("/pipeset/1000");
		ok("/pipehset/100");
		ok("/compare/get/500?variants=pipelined");
		assertThat(this.admin.sync().ttl("pipelining-lab:key:0")).isBetween(3590L, 3600L);
		assertThat(this.admin.sync().ttl("pipelining-lab:key:999")).isBetween(3590L, 3600L);
		assertThat(this.admin.sync().ttl("pipelining-lab:hash")).isBetween(3590L, 3600L);
		assertThat(this.admin.sync().keys("pipelining-lab:warmup*")).isEmpty();

		ok("/pipeset/10?ttl=120");
		assertThat(this.admin.sync().ttl("pipelining-lab:key:5")).isBetween(100L, 120L);
	}

	@Test
	void serverFiguresSayWhatHappenedToMemoryAndKeys() throws Exception {
		String body = ok("/pipeset/20000?valueSize=100").getContentAsString();
		DocumentContext answer = JsonPath.parse(body);

		assertThat(answer.read("$.server.evictedKeys", Long.class)).isZero();
		assertThat(answer.read("$.server.expiredKeys", Long.class)).isZero();
		long before = answer.read("$.server.usedMemoryBytes.before", Long.class);
		long after = answer.read("$.server.usedMemoryBytes.after", Long.class);
		assertThat(after - before).isGreaterThan(20_000L * 100);
		assertThat(PauseNotes.besidesPauses(body)).as("no note: nothing was evicted or lost").isEmpty();
	}

	static void writeCanaries(Admin admin) {
		String value = "c".repeat(10_000);
		for (int i = 0; i < 200; i++) {
			admin.sync().set("canary:" + i, value);
		}
	}

	private DocumentContext problem(String uri, int status) throws Exception {
		MockHttpServletResponse response = send(uri, status);
		assertThat(response.getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		return json(response);
	}

	private MockHttpServletResponse ok(String uri) throws Exception {
		return send(uri, 200);
	}

}
