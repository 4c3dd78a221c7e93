package dev.pipelininglab.job;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.PipeliningLabApplication;
import dev.pipelininglab.testsupport.Http;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.SpringRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three app instances started with {@code lab.fleet.join=true} on one Redis run one
 * measurement together: the record merges exactly what their shares did, on a standalone
 * server and on a 3-master cluster, and says so plainly when a member dies mid-run.
 */
@SlowTest
class FleetRunTests {

	private static final String BODY = "{\"operation\": \"set\", \"mode\": \"pipelined\", \"count\": %d,"
			+ " \"instances\": 3%s}";

	private final List<ConfigurableApplicationContext> apps = new ArrayList<>();

	private final List<Process> children = new ArrayList<>();

	@AfterEach
	void stopTheFleet() throws InterruptedException {
		this.apps.forEach(ConfigurableApplicationContext::close);
		for (Process child : this.children) {
			child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void threeInstancesOnOneRedisWriteEveryKeyOnceAndMergeTheirHistograms() {
		assertWholeFleetRun(RedisTestServers.standalone());
	}

	@Test
	void threeInstancesOnAClusterWriteEveryKeyOnceAndMergeTheirHistograms() {
		assertWholeFleetRun(RedisTestServers.cluster());
	}

	@Test
	void aMemberKilledMidRunIsNamedAndTheResultIsPartialWhileItsKeysStillExpire() throws Exception {
		SpringRedis redis = RedisTestServers.standalone();
		redis.flushAll();
		ConfigurableApplicationContext leader = app(redis);
		app(redis);
		Process child = child(redis);
		Http http = new Http(port(leader), Duration.ofSeconds(30));
		// Slowed by an added round trip so that the kill lands inside the timed passes.
		String location = start(http, 150_000, ", \"batchSize\": 50, \"rtt\": 2");
		StringRedisTemplate template = leader.getBean(StringRedisTemplate.class);
		// A fifth of the keys: each member is about a fifth through its timed pass.
		await().atMost(Duration.ofSeconds(120))
			.until(() -> template.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().dbSize()),
					(keys) -> keys >= 30_000);
		child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		DocumentContext record = finished(http, location);
		assertThat(record.<String>read("$.status")).isEqualTo("DONE");
		assertThat(record.<Integer>read("$.fleet.asked")).isEqualTo(3);
		assertThat(record.<Integer>read("$.fleet.instances")).isEqualTo(2);
		assertThat(record.<Boolean>read("$.fleet.partial")).isTrue();
		List<String> stopped = record.read("$.fleet.stopped");
		assertThat(stopped).hasSize(1);
		assertThat(stopped.get(0)).doesNotContain(":" + ProcessHandle.current().pid() + ":");
		assertThat(record.<String>read("$.summary")).startsWith("Partial: 2 of 3").contains(stopped.get(0));
		assertThat(record.<String>read("$.results[0].note")).startsWith("Partial");
		List<Number> written = record.read("$.fleet.members[*].written");
		assertThat(written).hasSize(2);
		assertThat(record.<Number>read("$.results[0].written").longValue())
			.isEqualTo(written.stream().mapToLong(Number::longValue).sum())
			.isLessThan(150_000);
		List<Map<String, Number>> shares = record.read("$.fleet.members[?(@.stopped)].share");
		long from = shares.get(0).get("from").longValue();
		long to = shares.get(0).get("to").longValue();
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			for (long item = from; item < to; item += 97) {
				String key = "pipelining-lab:key:" + item;
				Long ttl = template.getExpire(key);
				assertThat(ttl).as(key).matches((each) -> each == -2L || each > 0);
			}
		});
		// Some of what the killed member wrote is there, and has its expiry.
		assertThat(template.getExpire("pipelining-lab:key:" + from)).isPositive();
	}

	private void assertWholeFleetRun(SpringRedis redis) {
		redis.flushAll();
		ConfigurableApplicationContext leader = app(redis);
		app(redis);
		app(redis);
		Http http = new Http(port(leader), Duration.ofSeconds(30));
		DocumentContext record = finished(http, start(http, 60_000, ""));
		assertThat(record.<String>read("$.status")).isEqualTo("DONE");
		assertThat(record.<Integer>read("$.fleet.asked")).isEqualTo(3);
		assertThat(record.<Integer>read("$.fleet.instances")).isEqualTo(3);
		assertThat(record.<Map<String, Object>>read("$.fleet")).doesNotContainKeys("partial", "stopped");
		assertThat(record.<String>read("$.fleet.coordination")).contains("PUBLISH").contains("TIME");
		List<Number> written = record.read("$.fleet.members[*].written");
		assertThat(written.stream().mapToLong(Number::longValue).sum()).isEqualTo(60_000);
		assertThat(record.<List<?>>read("$.fleet.members[*].limitedBy.what")).hasSize(3);
		assertThat(record.<Number>read("$.results[0].written").longValue()).isEqualTo(60_000);
		assertThat(record.<Number>read("$.results[0].verified").longValue()).isEqualTo(60_000);
		List<Number> samples = record.read("$.fleet.members[*].latency.samples");
		assertThat(record.<Number>read("$.results[0].latency.samples").longValue())
			.isEqualTo(samples.stream().mapToLong(Number::longValue).sum());
		List<Number> from = record.read("$.fleet.members[*].share.from");
		assertThat(from.stream().map(Number::longValue)).containsExactly(0L, 20_000L, 40_000L);
		Set<String> keys = leader.getBean(StringRedisTemplate.class).keys("pipelining-lab:key:*");
		assertThat(keys).hasSize(60_000).contains("pipelining-lab:key:0", "pipelining-lab:key:59999");
	}

	private static String start(Http http, int count, String more) {
		HttpResponse<String> started = http.postJson("/runs", String.format(BODY, count, more));
		assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
		return started.headers().firstValue("Location").orElseThrow();
	}

	private static DocumentContext record(Http http, String location) {
		return JsonPath.parse(http.get(location).body());
	}

	private static DocumentContext finished(Http http, String location) {
		await().atMost(Duration.ofSeconds(180))
			.until(() -> Set.of("DONE", "FAILED", "CANCELLED").contains(record(http, location).read("$.status")));
		return record(http, location);
	}

	private ConfigurableApplicationContext app(SpringRedis redis) {
		ConfigurableApplicationContext app = new SpringApplicationBuilder(PipeliningLabApplication.class)
			.run(arguments(redis).toArray(String[]::new));
		this.apps.add(app);
		return app;
	}

	private static List<String> arguments(SpringRedis redis) {
		List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--lab.local-redis.enabled=false",
				"--lab.fleet.join=true", "--lab.fleet.join-timeout=10s", "--spring.main.banner-mode=off"));
		redis.springProperties().forEach((name, value) -> arguments.add("--" + name + "=" + value));
		return arguments;
	}

	/** A member in a JVM of its own, which the test can kill. */
	private Process child(SpringRedis redis) throws IOException {
		// C1 only, as the test JVMs run, for a faster start.
		List<String> command = new ArrayList<>(
				List.of(ProcessHandle.current().info().command().orElse("java"), "-XX:TieredStopAtLevel=1", "-cp",
						System.getProperty("java.class.path"), PipeliningLabApplication.class.getName()));
		command.addAll(arguments(redis));
		Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
		this.children.add(child);
		BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
		StringBuilder seen = new StringBuilder();
		String line;
		while ((line = out.readLine()) != null && !line.contains("Started PipeliningLabApplication")) {
			seen.append(line).append('\n');
		}
		assertThat(line).as(seen::toString).isNotNull();
		// Its output goes on being read, so that it never blocks on a full pipe.
		Thread drain = new Thread(() -> out.lines().forEach((ignored) -> {
		}), "fleet-child-output");
		drain.setDaemon(true);
		drain.start();
		return child;
	}

	private static int port(ConfigurableApplicationContext app) {
		return ((WebServerApplicationContext) app).getWebServer().getPort();
	}

}
