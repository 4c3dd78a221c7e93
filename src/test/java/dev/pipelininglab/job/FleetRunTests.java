package dev.pipelininglab.job;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.PipeliningLabApplication;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.testsupport.AppProcess;
import dev.pipelininglab.testsupport.Http;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.SpringRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import tools.jackson.databind.json.JsonMapper;

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
 * server and on a 3-master cluster, and says so plainly when a member dies mid-run. Its
 * {@code written} and {@code verified} are what the leader read back from Redis, and the
 * servers' account covers the timed passes alone; a process on the channel without the
 * fleet's secret gets no share and stops nothing, and one with it that reports keys it
 * never wrote is named.
 */
@SlowTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetRunTests {

	private static final String BODY = "{\"operation\": \"set\", \"mode\": \"pipelined\", \"count\": %d,"
			+ " \"instances\": %d%s}";

	static final String SECRET = "a fleet secret of at least 32 bytes, for tests only";

	private static final String CHANNEL = "pipelining-lab:fleet";

	/** A bound that fails a hung test, not a speed claim: CI's load stretches runs. */
	private static final Duration REQUEST = Duration.ofSeconds(90);

	/**
	 * Three apps on a Redis of their own, which the tests that need no other share; the
	 * killed-member test, last, keeps two of them and stops the third.
	 */
	private static final List<ConfigurableApplicationContext> trio = new ArrayList<>();

	private static @Nullable StandaloneRedis trioRedis;

	private final List<ConfigurableApplicationContext> apps = new ArrayList<>();

	private final List<Process> children = new ArrayList<>();

	@AfterEach
	void stopTheFleet() throws InterruptedException {
		this.apps.forEach(ConfigurableApplicationContext::close);
		for (Process child : this.children) {
			child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
	}

	@AfterAll
	static void stopTheTrio() {
		trio.forEach(ConfigurableApplicationContext::close);
		if (trioRedis != null) {
			trioRedis.close();
		}
	}

	/**
	 * No member reads back: the servers' count from the start to the last report is the
	 * SETs and the few INFO, TIME and PUBLISH commands around them.
	 */
	@Test
	void threeInstancesOnOneRedisWriteEveryKeyOnceAndTheServersCountTheTimedPassesAlone() {
		trio();
		DocumentContext record = assertWholeFleetRun(trio.get(0));
		assertThat(record.<Number>read("$.results[0].server.commands").longValue()).isBetween(60_000L, 63_000L);
		assertThat(record.<Map<String, Object>>read("$.results[0]")).doesNotContainKey("foreignCommands");
	}

	@Test
	void threeInstancesOnAClusterWriteEveryKeyOnceAndTheMastersCountTheTimedPassesAlone() {
		SpringRedis redis = RedisTestServers.cluster();
		redis.flushAll();
		ConfigurableApplicationContext leader = app(redis);
		app(redis);
		app(redis);
		DocumentContext record = assertWholeFleetRun(leader);
		assertThat(record.<Number>read("$.results[0].server.commands").longValue()).isBetween(60_000L, 63_000L);
	}

	/**
	 * Each leader runs only its own job, so neither knew of the other's run but through
	 * Redis: the live runs as it starts, and the runs begun before it ends.
	 */
	@Test
	void twoFleetRunsLedFromTwoInstancesAtOnceBothSayTheyOverlapped() {
		trio();
		Http first = new Http(port(trio.get(0)), REQUEST);
		Http second = new Http(port(trio.get(1)), REQUEST);
		// Slowed by 2 ms added to each round trip: 400 of them a member, so that they
		// meet.
		String a = start(first, 40_000, 2, ", \"batchSize\": 50, \"rtt\": 2");
		String b = start(second, 40_000, 2, ", \"batchSize\": 50, \"rtt\": 2");
		assertThat(finished(first, a).<Boolean>read("$.overlapped")).as(a).isTrue();
		assertThat(finished(second, b).<Boolean>read("$.overlapped")).as(b).isTrue();
	}

	/**
	 * A plain Redis client answers the call with unsigned and wrongly signed JOINs,
	 * replays every message it sees byte for byte, and sends STOPs in the leader's name
	 * once the run starts: none of it counts.
	 */
	@Test
	void messagesWithoutTheFleetsSecretOrSeenBeforeGetNoShareAndStopNothing() throws Exception {
		StandaloneRedis redis = trio();
		try (ForgingMember forger = new ForgingMember(redis)) {
			Http http = new Http(port(trio.get(0)), REQUEST);
			DocumentContext record = finished(http, start(http, 60_000, 3, ""));
			assertThat(record.<String>read("$.status")).isEqualTo("DONE");
			assertThat(record.<Integer>read("$.fleet.instances")).isEqualTo(3);
			assertThat(record.<Map<String, Object>>read("$.fleet")).doesNotContainKeys("partial", "stopped");
			assertThat(record.<List<String>>read("$.fleet.members[*].instance")).hasSize(3)
				.noneMatch((name) -> name.startsWith(ForgingMember.NAME));
			assertThat(record.<List<Number>>read("$.fleet.members[*].written")).extracting(Number::longValue)
				.containsExactly(20_000L, 20_000L, 20_000L);
			long held = keysIn(redis);
			assertThat(held).isEqualTo(60_000);
			assertThat(record.<Number>read("$.results[0].verified").longValue()).isEqualTo(held);
			// What was tried: two JOINs and two STOPs forged, and the run's own messages
			// (CALL, 2 JOIN, PLAN, 2 READY, GO, 2 RESULT, STOP) replayed.
			assertThat(forger.forged.get()).isEqualTo(4);
			assertThat(forger.replayed.get()).isGreaterThanOrEqualTo(9);
		}
	}

	/**
	 * A process with the secret is one of the fleet's; one that reports figures for keys
	 * it never wrote is still found out, as the leader reads every share back.
	 */
	@Test
	void aSignedMemberThatReportsKeysRedisDoesNotHoldIsNamedAndTheRunIsPartial() throws Exception {
		StandaloneRedis redis = trio();
		FleetChannel liar = new FleetChannel(trio.get(0).getBean(StringRedisTemplate.class),
				trio.get(0).getBean(JsonMapper.class), new KeySpace("pipelining-lab"),
				new FleetProperties(true, 16, Duration.ofSeconds(10), SECRET));
		AtomicBoolean reported = new AtomicBoolean();
		liar.listen((signal) -> {
			switch (signal.type()) {
				case CALL -> liar.publish(FleetChannel.Signal.of(FleetChannel.Type.JOIN, signal.run(), "liar"));
				case PLAN -> liar.publish(FleetChannel.Signal.of(FleetChannel.Type.READY, signal.run(), "liar"));
				// Another member's figures, as its own, for the share it never wrote.
				case RESULT -> {
					if (!signal.instance().equals("liar") && !reported.getAndSet(true)) {
						liar.publish(new FleetChannel.Signal(FleetChannel.Type.RESULT, signal.run(), "liar", 0, null,
								null, signal.at(), signal.result(), signal.histogram(), null));
					}
				}
				default -> {
				}
			}
		});
		try {
			Http http = new Http(port(trio.get(0)), REQUEST);
			DocumentContext record = finished(http, start(http, 60_000, 4, ""));
			assertThat(reported).isTrue();
			assertThat(record.<String>read("$.status")).isEqualTo("DONE");
			assertThat(record.<Boolean>read("$.fleet.partial")).isTrue();
			assertThat(record.<List<String>>read("$.fleet.stopped")).containsExactly("liar");
			assertThat(record.<List<String>>read("$.fleet.members[?(@.instance == 'liar')].stopped"))
				.singleElement(InstanceOfAssertFactories.STRING)
				.contains("Redis holds none of its share");
			assertThat(record.<String>read("$.summary")).startsWith("Partial: 3 of 4").contains("liar");
			long held = keysIn(redis);
			assertThat(held).isEqualTo(45_000);
			assertThat(record.<Number>read("$.results[0].verified").longValue()).isEqualTo(held);
			assertThat(record.<Number>read("$.results[0].written").longValue()).isEqualTo(held);
		}
		finally {
			liar.stop();
		}
	}

	/**
	 * Last, as it leaves the trio two: the leader and one member are two of the trio (the
	 * third is closed first, so that the child is the only other instance on the
	 * channel), the third member a child JVM that is killed. It starts no app in this JVM
	 * of its own.
	 */
	@Test
	@Order(Integer.MAX_VALUE)
	void aMemberKilledMidRunIsNamedAndTheResultIsPartialWhileItsKeysStillExpire() throws Exception {
		StandaloneRedis redis = trio();
		while (trio.size() > 2) {
			trio.remove(trio.size() - 1).close();
		}
		ConfigurableApplicationContext leader = trio.get(0);
		Process child = child(redis);
		Http http = new Http(port(leader), REQUEST);
		// Slowed by an added round trip so that the kill lands inside the timed passes.
		String location = start(http, 150_000, 3, ", \"batchSize\": 50, \"rtt\": 2");
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
		// The child by its pid, not only none of this JVM's: the leader and member are
		// reused from earlier tests, whose runs named other members stopped.
		assertThat(stopped.get(0)).doesNotContain(":" + ProcessHandle.current().pid() + ":")
			.contains(":" + child.pid() + ":");
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

	private static DocumentContext assertWholeFleetRun(ConfigurableApplicationContext leader) {
		Http http = new Http(port(leader), REQUEST);
		DocumentContext record = finished(http, start(http, 60_000, 3, ""));
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
		return record;
	}

	/** Flushed for each test that uses them. */
	private static synchronized StandaloneRedis trio() {
		if (trioRedis == null) {
			trioRedis = RedisTestServers.newStandalone();
			for (int i = 0; i < 3; i++) {
				trio.add(new SpringApplicationBuilder(PipeliningLabApplication.class)
					.run(arguments(trioRedis).toArray(String[]::new)));
			}
		}
		trioRedis.flushAll();
		return trioRedis;
	}

	private static long keysIn(StandaloneRedis redis) {
		try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
			return jedis.keys("pipelining-lab:key:*").size();
		}
	}

	private static String start(Http http, int count, int instances, String more) {
		HttpResponse<String> started = http.postJson("/runs", String.format(BODY, count, instances, more));
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
				"--lab.fleet.join=true", "--lab.fleet.join-timeout=10s", "--lab.fleet.secret=" + SECRET,
				"--spring.main.banner-mode=off"));
		redis.springProperties().forEach((name, value) -> arguments.add("--" + name + "=" + value));
		return arguments;
	}

	/** A member in a JVM of its own, which the test can kill. */
	private Process child(SpringRedis redis) throws IOException {
		return AppProcess.start(arguments(redis), this.children::add);
	}

	private static int port(ConfigurableApplicationContext app) {
		return ((WebServerApplicationContext) app).getWebServer().getPort();
	}

	/**
	 * A process on the channel without the fleet's secret: a plain Redis client that
	 * answers the call with forged JOINs, replays every message it sees, and tells the
	 * members to stop in the leader's name once the run starts.
	 */
	private static final class ForgingMember extends JedisPubSub implements AutoCloseable {

		static final String NAME = "forger";

		final AtomicInteger forged = new AtomicInteger();

		final AtomicInteger replayed = new AtomicInteger();

		private final Jedis subscriber;

		private final Jedis publisher;

		private final Set<String> mine = ConcurrentHashMap.newKeySet();

		private volatile String leader = "";

		ForgingMember(StandaloneRedis redis) {
			this.subscriber = new Jedis(redis.host(), redis.port());
			this.publisher = new Jedis(redis.host(), redis.port());
			Thread listening = new Thread(() -> this.subscriber.subscribe(this, CHANNEL), "forging-member");
			listening.setDaemon(true);
			listening.start();
			await().atMost(Duration.ofSeconds(10)).until(this::isSubscribed);
		}

		@Override
		public void onMessage(String channel, String message) {
			if (this.mine.remove(message)) {
				return;
			}
			send(message);
			this.replayed.incrementAndGet();
			DocumentContext body = JsonPath.parse(message.substring(message.indexOf('.') + 1));
			String run = body.read("$.run");
			switch (body.<String>read("$.type")) {
				case "CALL" -> {
					this.leader = body.read("$.instance");
					forge("JOIN", run, NAME);
				}
				case "GO" -> forge("STOP", run, this.leader);
				default -> {
				}
			}
		}

		/** Once unsigned, once signed with another secret. */
		private void forge(String type, String run, String instance) {
			String json = String.format("{\"type\": \"%s\", \"run\": \"%s\", \"instance\": \"%s\", \"sentAt\": %d}",
					type, run, instance, System.currentTimeMillis());
			send(json);
			send(hmac("another secret of at least 32 bytes, not the fleet's", json) + "." + json);
			this.forged.addAndGet(2);
		}

		private void send(String message) {
			this.mine.add(message);
			this.publisher.publish(CHANNEL, message);
		}

		private static String hmac(String secret, String body) {
			try {
				Mac mac = Mac.getInstance("HmacSHA256");
				mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
				return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
			}
			catch (GeneralSecurityException ex) {
				throw new IllegalStateException(ex);
			}
		}

		@Override
		public void close() {
			unsubscribe();
			await().atMost(Duration.ofSeconds(10)).until(() -> !isSubscribed());
			this.subscriber.close();
			this.publisher.close();
		}

	}

}
