package dev.pipelininglab.web.job;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.JobsOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Jobs honour {@code lab.limits.max-run-time} as GET runs do: a job still going then
 * stops between commands and ends FAILED with {@code run-time-exceeded}, its keys keeping
 * their expiry, and a full instance's {@code Retry-After} never names a longer wait. A
 * job's record repeats its run: posted back, it runs the same.
 */
@TestPropertySource(properties = { "lab.limits.max-run-time=3s", "lab.admission.max-concurrent=2" })
@SlowTest
class JobRunTimeLimitTests extends JobsOnTestRedis {

	@Autowired
	StringRedisTemplate redis;

	private static final String ENDLESS_LOOP = """
			{"operation": "set", "mode": "loop", "count": 10000000}""";

	@Test
	void aJobStillRunningAtMaxRunTimeEndsFailedAndItsKeysKeepTheirExpiry() throws Exception {
		RedisServerProcess server = RedisTestServers.standalone().process();
		long cleanupBefore = NodeStats.cleanupCalls(server);
		String id = JsonPath.read(http().postJson("/runs", ENDLESS_LOOP).body(), "$.id");

		await().atMost(Duration.ofSeconds(20))
			.until(() -> JsonPath.<String>read(http().get("/runs/" + id).body(), "$.status"), "FAILED"::equals);
		String record = http().get("/runs/" + id).body();
		assertThat(JsonPath.<String>read(record, "$.problem.type"))
			.isEqualTo("urn:pipelining-lab:problem:run-time-exceeded");
		await().atMost(Duration.ofSeconds(20)).until(() -> this.redis.getExpire("pipelining-lab:key:0") > 0);
		// The clean-up costs at most one command per key written, plus the issue's
		// 10,000,
		// and then nothing more.
		long written = NodeStats.keys(server);
		AtomicLong settled = new AtomicLong(-1);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(30)).until(() -> {
			long now = NodeStats.cleanupCalls(server);
			return settled.getAndSet(now) == now;
		});
		assertThat(settled.get() - cleanupBefore).as("EXPIREs, UNLINKs and DELs for %d keys", written)
			.isLessThanOrEqualTo(written + 10_000);
	}

	@Test
	void aFullInstanceNamesAWaitNoLongerThanMaxRunTime() throws Exception {
		assertThat(http().postJson("/runs", ENDLESS_LOOP).statusCode()).isEqualTo(202);
		assertThat(http().postJson("/runs", ENDLESS_LOOP).statusCode()).isEqualTo(202);

		HttpResponse<String> full = http().postJson("/runs", ENDLESS_LOOP);

		assertThat(full.statusCode()).isEqualTo(429);
		assertThat(Long.parseLong(full.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 3L);
	}

	@Test
	void aJobsRecordPostedBackRunsTheSameRun() throws Exception {
		String first = JsonPath.read(http().postJson("/runs", """
				{"operation": "mixed", "mode": "loop", "count": 400, "ratio": "3:1"}""").body(), "$.id");
		await().atMost(Duration.ofSeconds(20))
			.until(() -> JsonPath.<String>read(http().get("/runs/" + first).body(), "$.status"), "DONE"::equals);
		Map<String, Object> request = JsonPath.read(http().get("/runs/" + first).body(), "$.request");
		assertThat(request).containsEntry("ratio", "3:1").doesNotContainKey("flushPolicy");

		HttpResponse<String> again = http().postJson("/runs", JsonPath.parse(request).jsonString());

		assertThat(again.statusCode()).as(again.body()).isEqualTo(202);
		assertThat(JsonPath.<Map<String, Object>>read(again.body(), "$.request")).isEqualTo(request);
	}

}
