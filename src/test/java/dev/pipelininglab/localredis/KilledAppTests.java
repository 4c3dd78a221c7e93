package dev.pipelininglab.localredis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.pipelininglab.testsupport.AppProcess;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An app killed with SIGKILL runs no shutdown hook: the redis-server it started must end
 * anyway, and the folder it leaves is removed by the next start.
 */
@SlowTest
class KilledAppTests {

	/**
	 * With the usual PATH, and with one where no command is found (a minimal container):
	 * the watchdog uses shell built-ins and absolute paths only, so it neither fails nor
	 * ends the server it guards at once.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "inherited", "/nonexistent" })
	void theLocalServerEndsWhenItsAppIsKilled(String path) throws Exception {
		assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "the watchdog needs /bin/sh");
		int port = RedisServerProcess.freePort();
		ProcessBuilder builder = new ProcessBuilder(AppProcess.java(ChildApp.class, List.of(Integer.toString(port))))
			.redirectErrorStream(true);
		if (!path.equals("inherited")) {
			builder.environment().put("PATH", path);
		}
		Process app = builder.start();
		long server;
		try (BufferedReader out = new BufferedReader(
				new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
			server = awaitServerPid(out);
			assertThat(ProcessHandle.of(server).map(ProcessHandle::isAlive)).contains(true);
			app.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
		await().atMost(Duration.ofSeconds(20))
			.until(() -> ProcessHandle.of(server).map((handle) -> !handle.isAlive()).orElse(true));
		assertThat(RedisServerProcess.answersPing("127.0.0.1", port, Duration.ofMillis(300))).isFalse();
	}

	@Test
	void folderOfAGoneServerIsRemovedWhileALiveOneStays(@TempDir Path cache) throws IOException {
		Path gone = Files.createDirectories(cache.resolve("run-1"));
		Files.writeString(gone.resolve("redis.pid"), "2147483646");
		Path live = Files.createDirectories(cache.resolve("run-2"));
		Files.writeString(live.resolve("redis.pid"), Long.toString(ProcessHandle.current().pid()));
		Path starting = Files.createDirectories(cache.resolve("run-3"));
		Path other = Files.createDirectories(cache.resolve("redis-server-8.0"));
		new LocalRedisLauncher(Supplier::get).removeStaleRunDirectories(cache);
		assertThat(gone).doesNotExist();
		assertThat(live).exists();
		assertThat(starting).exists();
		assertThat(other).exists();
	}

	private static long awaitServerPid(BufferedReader out) throws IOException {
		StringBuilder seen = new StringBuilder();
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		String line;
		while (System.nanoTime() < deadline && (line = out.readLine()) != null) {
			seen.append(line).append('\n');
			if (line.startsWith("SERVER-PID ")) {
				return Long.parseLong(line.substring("SERVER-PID ".length()).strip());
			}
		}
		throw new AssertionError("The child app never reported its server:\n" + seen);
	}

	/** The launcher as an app runs it, in a JVM of its own that the test can kill. */
	static final class ChildApp {

		public static void main(String[] args) throws InterruptedException, IOException {
			new SpringApplicationBuilder(Empty.class).web(WebApplicationType.NONE)
				.properties("spring.main.banner-mode=off", "spring.data.redis.port=" + args[0])
				.run();
			// The launcher notes its server's pid for the next start's clean-up.
			System.out.println("SERVER-PID "
					+ Files.readString(RedisServerBinary.cacheDir().resolve("run-" + args[0]).resolve("redis.pid")));
			// Lives until the test kills it.
			new java.util.concurrent.CountDownLatch(1).await();
		}

	}

	static final class Empty {

	}

}
