package dev.pipelininglab.job;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.PipeliningLabApplication;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.AppProcess;
import dev.pipelininglab.testsupport.Http;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.testsupport.TestLettuce;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Whatever dies, nothing the lab wrote stays without an expiry: app instances killed with
 * SIGKILL mid-run (no shutdown hook, no final record, no expiry of their own) leave a
 * record that lists what the run may write, and a live instance's sweep gives those keys
 * their expiry. The settings bring minutes down to seconds: a heartbeat every 200 ms,
 * stale after 1 s, a sweep every 500 ms.
 */
@SlowTest
class AbandonedRunsTests {

	private static final String PREFIX = "pipelining-lab:";

	/** Fleet messages are signed with it once fleets need a secret. */
	private static final String SECRET = "abandoned-runs-tests-secret-of-at-least-32-bytes";

	private static final Duration WAIT = Duration.ofSeconds(120);

	private static final Pattern KEYSPACE = Pattern.compile("keys=(\\d+),expires=(\\d+)");

	private final List<ConfigurableApplicationContext> apps = new ArrayList<>();

	private final List<Process> children = new ArrayList<>();

	@AfterEach
	void stopEverything() throws InterruptedException {
		this.apps.forEach(ConfigurableApplicationContext::close);
		for (Process child : this.children) {
			child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void aSingleInstanceKilledMidRunAndStartedAgainGivesEveryKeyItsExpiry() throws Exception {
		try (StandaloneRedis redis = RedisTestServers.newStandalone();
				StatefulRedisConnection<String, String> admin = admin(redis)) {
			int port = RedisServerProcess.freePort();
			Process first = child(redis, port);
			Http http = new Http(port, WAIT);
			// Slowed by an added round trip so that the kill lands inside its timed pass:
			// 4,000 batches of at least 2 ms, killed about a hundred in. The sweep gives
			// every key of the range its expiry, so the range is no longer than that
			// needs.
			HttpClient.newHttpClient()
				.sendAsync(HttpRequest.newBuilder(http.uri("/pipeset/40000?batchSize=10&rtt=2")).build(),
						HttpResponse.BodyHandlers.discarding());
			await().atMost(WAIT).until(() -> admin.sync().dbsize() >= 2_000);
			first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
			assertThat(withoutExpiry(admin.sync())).as("what the killed instance left").isPositive();

			// Started again: a new instance on the same Redis. In this JVM, as the live
			// members of the fleet test are: only the killed one needs a JVM of its own.
			app(redis);
			await().atMost(WAIT).untilAsserted(() -> assertThat(withoutExpiry(admin.sync())).isZero());
			String id = admin.sync().zrange(PREFIX + "runs", 0, -1).get(0);
			String record = admin.sync().get(PREFIX + "run:" + id);
			assertThat(JsonPath.<String>read(record, "$.status")).isEqualTo("FAILED");
			assertThat(JsonPath.<String>read(record, "$.problem.type"))
				.isEqualTo("urn:pipelining-lab:problem:run-abandoned");
			assertThat(JsonPath.<List<Map<String, Object>>>read(record, "$.writes"))
				.contains(Map.of("key", PREFIX + "key:<i>", "from", 0, "to", 40_000));
			assertThat(admin.sync().exists(PREFIX + "runs:live")).as("runs left live").isZero();
		}
	}

	@Test
	void aFleetLeaderKilledMidPassHasItsSharesExpiredByTheMembersThatLive() throws Exception {
		try (StandaloneRedis redis = RedisTestServers.newStandalone();
				StatefulRedisConnection<String, String> admin = admin(redis)) {
			int port = RedisServerProcess.freePort();
			Process leader = child(redis, port);
			app(redis);
			app(redis);
			Http http = new Http(port, WAIT);
			HttpResponse<String> started = http.postJson("/runs", """
					{"operation": "set", "mode": "pipelined", "count": 150000, "batchSize": 50, "rtt": 2,
					 "instances": 3}""");
			assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
			// A fifth of the keys: each member is about a fifth through its timed pass.
			await().atMost(WAIT).until(() -> admin.sync().dbsize() >= 30_000);
			leader.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
			assertThat(withoutExpiry(admin.sync())).as("what the killed leader left").isPositive();

			await().atMost(WAIT).untilAsserted(() -> assertThat(withoutExpiry(admin.sync())).isZero());
			String record = admin.sync().get(PREFIX + "run:" + JsonPath.read(started.body(), "$.id"));
			assertThat(JsonPath.<String>read(record, "$.problem.type"))
				.isEqualTo("urn:pipelining-lab:problem:run-abandoned");
		}
	}

	/**
	 * Keys without an expiry, as the server counts them (INFO keyspace: keys less
	 * expires): the test's own Redis holds only what the lab wrote. A TTL per key,
	 * polled, cost the test a minute at 200,000 keys.
	 */
	private static long withoutExpiry(RedisCommands<String, String> redis) {
		String db0 = redis.info("keyspace")
			.lines()
			.filter((line) -> line.startsWith("db0:"))
			.findFirst()
			.orElse("db0:keys=0,expires=0");
		Matcher counts = KEYSPACE.matcher(db0);
		assertThat(counts.find()).as(db0).isTrue();
		return Long.parseLong(counts.group(1)) - Long.parseLong(counts.group(2));
	}

	private static StatefulRedisConnection<String, String> admin(StandaloneRedis redis) {
		return TestLettuce.client().connect(RedisURI.create(redis.host(), redis.port()));
	}

	private static List<String> arguments(StandaloneRedis redis, int port) {
		List<String> arguments = new ArrayList<>(List.of("--server.port=" + port, "--lab.local-redis.enabled=false",
				"--lab.fleet.join=true", "--lab.fleet.join-timeout=10s", "--lab.fleet.secret=" + SECRET,
				"--lab.jobs.heartbeat=200ms", "--lab.jobs.stale-after=1s", "--lab.jobs.sweep-interval=500ms",
				"--spring.main.banner-mode=off"));
		redis.springProperties().forEach((name, value) -> arguments.add("--" + name + "=" + value));
		return arguments;
	}

	/** A live member in this JVM. */
	private void app(StandaloneRedis redis) {
		this.apps.add(new SpringApplicationBuilder(PipeliningLabApplication.class)
			.run(arguments(redis, 0).toArray(String[]::new)));
	}

	/** An instance in a JVM of its own, which the test can kill. */
	private Process child(StandaloneRedis redis, int port) throws IOException {
		return AppProcess.start(arguments(redis, port), this.children::add);
	}

}
