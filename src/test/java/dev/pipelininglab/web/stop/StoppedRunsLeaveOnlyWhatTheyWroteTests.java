package dev.pipelininglab.web.stop;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.TestLettuce;
import dev.pipelininglab.web.JobsOnTestRedis;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * However a run ends (its caller hangs up, its job is cancelled) and however large the
 * key space it walks, the lab's clean-up for it is bounded by what it wrote: Redis' own
 * {@code INFO commandstats} counts at most one EXPIRE or UNLINK per key the run wrote
 * (warm-up included) plus 10,000, every key it left carries an expiry, and once they do
 * the lab sends nothing more for it.
 */
@SlowTest
class StoppedRunsLeaveOnlyWhatTheyWroteTests extends JobsOnTestRedis {

	/** The allowance beside one command per key written. */
	private static final long SLACK = 10_000;

	private final RedisServerProcess redis = RedisTestServers.standalone().process();

	private StatefulRedisConnection<String, String> admin;

	private long cleanupBefore;

	@BeforeEach
	void countCleanupCommands() {
		this.admin = TestLettuce.client().connect(RedisURI.create(this.redis.host(), this.redis.port()));
		this.cleanupBefore = cleanupCommands();
	}

	@AfterEach
	void close() {
		this.admin.close();
	}

	@Test
	void aRunOverAKeySpaceLargerThanItselfClearsAndExpiresOnlyTheKeysItWalked() throws Exception {
		assertThat(http().get("/pipeset/10?keys=1000000").statusCode()).isEqualTo(200);
		assertThat(http().get("/compare/set/10?keys=1000000&variants=loop,pipelined").statusCode()).isEqualTo(200);

		List<String> left = labKeys();
		assertThat(left).as("the ten keys the walk wrote").hasSize(10);
		assertEveryKeyExpires(left);
		assertThat(cleanupCommands() - this.cleanupBefore).as("EXPIREs and UNLINKs").isLessThan(1_000);
	}

	@Test
	void aGetRunWhoseCallerHangsUpGivesAnExpiryToWhatItWroteAndNothingMore() throws Exception {
		try (Socket caller = new Socket("127.0.0.1", this.port)) {
			OutputStream out = caller.getOutputStream();
			out.write("GET /loopset/10000000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			await().atMost(Duration.ofSeconds(30)).until(() -> sync().exists("pipelining-lab:key:2000") == 1);
		}
		assertBoundedCleanupOfWhatWasWritten();
	}

	@Test
	void aCancelledJobGivesAnExpiryToWhatItWroteAndNothingMore() throws Exception {
		String id = JsonPath.read(http().postJson("/runs", """
				{"kind": "compare", "operation": "set", "count": 10000000, "variants": ["loop", "pipelined"]}""")
			.body(), "$.id");
		await().atMost(Duration.ofSeconds(30)).until(() -> sync().exists("pipelining-lab:key:2000") == 1);
		assertThat(http().send("DELETE", "/runs/" + id).statusCode()).isEqualTo(202);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> JsonPath.<String>read(http().get("/runs/" + id).body(), "$.status"), "CANCELLED"::equals);
		assertBoundedCleanupOfWhatWasWritten();
	}

	/**
	 * Every key the stopped run left gets its expiry, its warm-up's included; the
	 * clean-up sent at most one command per key plus the slack, and then stops.
	 */
	private void assertBoundedCleanupOfWhatWasWritten() {
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertEveryKeyExpires(labKeys()));
		long written = labKeys().size();
		long settled = cleanupCommands();
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> cleanupCommands() == settled);
		assertThat(settled - this.cleanupBefore).as("EXPIREs and UNLINKs for %d keys written", written)
			.isLessThanOrEqualTo(written + SLACK);
	}

	private void assertEveryKeyExpires(List<String> keys) {
		assertThat(keys).isNotEmpty();
		for (String key : keys) {
			assertThat(sync().ttl(key)).as("TTL of " + key).isPositive();
		}
	}

	private List<String> labKeys() {
		List<String> keys = new ArrayList<>();
		ScanIterator.scan(sync(), ScanArgs.Builder.matches("pipelining-lab:*key:*").limit(1000))
			.forEachRemaining(keys::add);
		return keys;
	}

	private long cleanupCommands() {
		return NodeStats.cleanupCalls(this.redis);
	}

	private RedisCommands<String, String> sync() {
		return this.admin.sync();
	}

}
