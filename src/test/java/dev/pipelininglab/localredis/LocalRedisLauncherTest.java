package dev.pipelininglab.localredis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.pipelininglab.Loopback;
import dev.pipelininglab.testsupport.ChildProcesses;
import dev.pipelininglab.testsupport.TestLettuce;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs the launcher the way the application does, through a real
 * {@code SpringApplication} (no web server, no auto-configuration: the launcher only
 * looks at the environment).
 */
class LocalRedisLauncherTest {

	private static final RedisClient client = TestLettuce.client();

	@Test
	void startsRedisWhereNothingListensAndStopsItWithTheContext() {
		int port = RedisServerProcess.freePort();
		long pid;

		try (ConfigurableApplicationContext context = run("spring.data.redis.port=" + port)) {
			pid = serverPid(port);
			assertThat(ChildProcesses.live()).contains(pid);
		}

		await().atMost(Duration.ofSeconds(10)).until(() -> isGone(pid));
		assertThat(ChildProcesses.live()).doesNotContain(pid);
		assertThat(RedisServerProcess.answersPing("127.0.0.1", port, Duration.ofMillis(300))).isFalse();
	}

	@Test
	void aSecondContextOnTheSamePortReusesTheServerUntilTheLastOneCloses() {
		int port = RedisServerProcess.freePort();

		ConfigurableApplicationContext first = run("spring.data.redis.port=" + port);
		long pid = serverPid(port);
		try (ConfigurableApplicationContext second = run("spring.data.redis.port=" + port)) {
			first.close();

			assertThat(serverPid(port)).isEqualTo(pid);
		}

		await().atMost(Duration.ofSeconds(10)).until(() -> isGone(pid));
	}

	@Test
	void leavesAReachablePortAlone() throws IOException {
		Set<Long> before = ChildProcesses.live();
		try (ServerSocket listening = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
			try (ConfigurableApplicationContext context = run("spring.data.redis.port=" + listening.getLocalPort())) {
				assertThat(ChildProcesses.live()).isEqualTo(before);
			}
		}
	}

	@Test
	void startsNothingWhenDisabled() {
		int port = RedisServerProcess.freePort();
		Set<Long> before = ChildProcesses.live();

		try (ConfigurableApplicationContext context = run("spring.data.redis.port=" + port,
				"lab.local-redis.enabled=false")) {
			assertThat(ChildProcesses.live()).isEqualTo(before);
			assertThat(RedisServerProcess.answersPing("127.0.0.1", port, Duration.ofMillis(300))).isFalse();
		}
	}

	@Test
	void startsNothingForSentinelClusterOrRemoteConfigurations() {
		int port = RedisServerProcess.freePort();
		Set<Long> before = ChildProcesses.live();

		for (String property : List.of("spring.data.redis.sentinel.nodes=127.0.0.1:1",
				"spring.data.redis.cluster.nodes=127.0.0.1:1", "spring.data.redis.url=redis://127.0.0.1:1",
				"spring.data.redis.host=192.0.2.1")) {
			try (ConfigurableApplicationContext context = run("spring.data.redis.port=" + port, property)) {
				assertThat(ChildProcesses.live()).as(property).isEqualTo(before);
			}
		}
	}

	@Test
	void recognisesLoopbackHostsWithoutLookingNamesUp() {
		assertThat(Loopback.is("localhost")).isTrue();
		assertThat(Loopback.is("127.0.0.1")).isTrue();
		assertThat(Loopback.is("::1")).isTrue();
		assertThat(Loopback.is("[::1]")).isTrue();
		assertThat(Loopback.is("192.0.2.1")).isFalse();
		assertThat(Loopback.is("redis.example.com")).isFalse();
	}

	private static ConfigurableApplicationContext run(String... properties) {
		return new SpringApplicationBuilder(Empty.class).web(WebApplicationType.NONE)
			.properties("spring.main.banner-mode=off")
			.properties(properties)
			.run();
	}

	/**
	 * Asks the server itself for its pid, which also proves it answers.
	 */
	private static long serverPid(int port) {
		try (StatefulRedisConnection<String, String> connection = client.connect(RedisURI.create("127.0.0.1", port))) {
			assertThat(connection.sync().ping()).isEqualTo("PONG");
			String info = connection.sync().info("server");
			return Long.parseLong(info.lines()
				.filter((line) -> line.startsWith("process_id:"))
				.findFirst()
				.orElseThrow()
				.substring("process_id:".length())
				.strip());
		}
	}

	private static boolean isGone(long pid) {
		return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty();
	}

	/**
	 * A source for the application that defines nothing; deliberately not a configuration
	 * class, so that no component scan of the application's packages picks it up.
	 */
	static class Empty {

	}

}
