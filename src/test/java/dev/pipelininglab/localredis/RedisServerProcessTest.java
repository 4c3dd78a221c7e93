package dev.pipelininglab.localredis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;

import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.TestLettuce;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class RedisServerProcessTest {

	private static final Duration SHORT = Duration.ofMillis(300);

	private static Path binary;

	private static final RedisClient client = TestLettuce.client();

	@TempDir
	Path workDir;

	@BeforeAll
	static void setUp() {
		binary = RedisServerBinary.resolve(null);
	}

	@Test
	void startsAServerThatAnswersAndStopsItWithoutATrace() {
		RedisServerProcess server = RedisServerProcess.start(binary, RedisServerProcess.freePort(), this.workDir);
		long pid = server.pid();

		assertThat(server.host()).isEqualTo("127.0.0.1");
		assertThat(server.isAlive()).isTrue();
		try (StatefulRedisConnection<String, String> connection = connect(server, null)) {
			assertThat(connection.sync().set("key", "value")).isEqualTo("OK");
			assertThat(connection.sync().configGet("save")).containsEntry("save", "");
			assertThat(connection.sync().configGet("dir")).containsEntry("dir", this.workDir.toString());
		}

		server.stop();
		server.stop();

		assertThat(server.isAlive()).isFalse();
		assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
		assertThat(this.workDir.resolve("redis.log")).content().contains("ready to exit");
	}

	@Test
	void pauseMakesTheServerSilentUntilResumed() {
		RedisServerProcess server = RedisServerProcess.start(binary, RedisServerProcess.freePort(), this.workDir);
		try {
			Outages.pause(server);

			assertThat(Outages.isPaused(server)).isTrue();
			assertThat(RedisServerProcess.answersPing(server.host(), server.port(), SHORT)).isFalse();

			Outages.resume(server);

			assertThat(RedisServerProcess.answersPing(server.host(), server.port(), SHORT)).isTrue();
			Outages.pause(server);
		}
		finally {
			Outages.stop(server);
		}
		// A server that is paused when closed must not linger with a pending SIGTERM.
		assertThat(server.isAlive()).isFalse();
	}

	@Test
	void killEndsTheProcessAtOnce() {
		RedisServerProcess server = RedisServerProcess.start(binary, RedisServerProcess.freePort(), this.workDir);

		Outages.kill(server);

		assertThat(server.isAlive()).isFalse();
		assertThat(RedisServerProcess.answersPing(server.host(), server.port(), SHORT)).isFalse();
		// SIGKILL leaves no "ready to exit" in the log, unlike stop().
		assertThat(server.logFile()).content().doesNotContain("ready to exit");
		server.stop();
	}

	@Test
	void aServerWithAPasswordCountsAsStarted() {
		try (RedisServerProcess server = RedisServerProcess.start(binary, RedisServerProcess.freePort(), this.workDir,
				"--requirepass", "s3cret")) {
			try (StatefulRedisConnection<String, String> connection = connect(server, "s3cret")) {
				assertThat(connection.sync().ping()).isEqualTo("PONG");
			}
		}
	}

	@Test
	void aServerThatCannotStartIsReportedWithItsOutput() {
		int port = RedisServerProcess.freePort();

		assertThatIllegalStateException()
			.isThrownBy(() -> RedisServerProcess.start(binary, port, this.workDir, "--no-such-directive", "1"))
			.withMessageContaining("exited with code")
			.withMessageContaining("no-such-directive");
		assertThat(RedisServerProcess.answersPing("127.0.0.1", port, SHORT)).isFalse();
	}

	@Test
	void aTakenPortIsReportedBeforeAnythingStarts() throws IOException {
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			assertThatIllegalStateException()
				.isThrownBy(() -> RedisServerProcess.start(binary, taken.getLocalPort(), this.workDir))
				.withMessageContaining("port is taken");
		}
	}

	@Test
	void portZeroIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> RedisServerProcess.start(binary, 0, this.workDir))
			.withMessageContaining("freePort()");
	}

	private static StatefulRedisConnection<String, String> connect(RedisServerProcess server, String password) {
		RedisURI.Builder uri = RedisURI.builder().withHost(server.host()).withPort(server.port());
		if (password != null) {
			uri.withPassword(password.toCharArray());
		}
		return client.connect(uri.build());
	}

}
