package dev.pipelininglab.localredis;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class RedisServerBinaryTest {

	private static final Path SYSTEM_REDIS = Path.of("/usr/bin/redis-server");

	@Test
	void prefersTheRedisServerOnThePathToTheBundledOne() {
		assumeTrue(Files.isExecutable(SYSTEM_REDIS), "needs /usr/bin/redis-server");
		Path first = Stream.of(System.getenv("PATH").split(File.pathSeparator))
			.map((dir) -> Path.of(dir, "redis-server"))
			.filter(Files::isExecutable)
			.findFirst()
			.orElseThrow();

		assertThat(RedisServerBinary.resolve(null)).isEqualTo(first.toAbsolutePath())
			.isNotEqualTo(RedisServerBinary.bundled());
		assertThat(RedisServerBinary.version(SYSTEM_REDIS)).matches("\\d+\\.\\d+\\.\\d+");
	}

	@Test
	void aConfiguredBinaryWins() {
		Path bundled = RedisServerBinary.bundled();

		assertThat(RedisServerBinary.resolve(bundled.toString())).isEqualTo(bundled);
		// A blank setting is no setting: the same search as none.
		assertThat(RedisServerBinary.resolve("  ")).isEqualTo(RedisServerBinary.resolve(null));
	}

	@Test
	void aConfiguredPathThatIsNotExecutableIsRejected(@TempDir Path dir) throws IOException {
		Path notExecutable = Files.writeString(dir.resolve("redis-server"), "not a binary");

		assertThatIllegalStateException().isThrownBy(() -> RedisServerBinary.resolve(notExecutable.toString()))
			.withMessageContaining(notExecutable.toString())
			.withMessageContaining("not an executable");
		assertThatIllegalStateException().isThrownBy(() -> RedisServerBinary.resolve(dir.resolve("missing").toString()))
			.withMessageContaining("does not exist");
	}

	@Test
	void mapsPlatformsToTheBinariesEmbeddedRedisShips() {
		assertThat(RedisServerBinary.bundledResourceName("Linux", "amd64"))
			.isEqualTo("redis-server-6.2.6-v5-linux-amd64");
		assertThat(RedisServerBinary.bundledResourceName("Linux", "aarch64"))
			.isEqualTo("redis-server-6.2.7-linux-arm64");
		assertThat(RedisServerBinary.bundledResourceName("Linux", "i386")).isEqualTo("redis-server-6.2.7-linux-386");
		assertThat(RedisServerBinary.bundledResourceName("Mac OS X", "x86_64"))
			.isEqualTo("redis-server-6.2.6-v5-darwin-amd64");
		assertThat(RedisServerBinary.bundledResourceName("Mac OS X", "aarch64"))
			.isEqualTo("redis-server-6.2.6-v5-darwin-arm64");
		assertThat(RedisServerBinary.bundledResourceName("Windows 11", "amd64"))
			.isEqualTo("redis-server-5.0.14.1-windows-amd64.exe");
		assertThat(RedisServerBinary.bundledResourceName("Linux", "riscv64")).isNull();
		assertThat(RedisServerBinary.bundledResourceName("FreeBSD", "amd64")).isNull();
	}

	@Test
	void theBundledBinaryIsExtractedOnceAndServes(@TempDir Path cacheDir) throws IOException {
		assumeTrue(RedisServerBinary.bundledResourceName(System.getProperty("os.name"),
				System.getProperty("os.arch")) != null, "no bundled binary for this platform");

		Path binary = RedisServerBinary.bundled(cacheDir);
		long extractedAt = Files.getLastModifiedTime(binary).toMillis();

		assertThat(binary).startsWith(cacheDir).isExecutable();
		assertThat(RedisServerBinary.bundled(cacheDir)).isEqualTo(binary);
		assertThat(Files.getLastModifiedTime(binary).toMillis()).isEqualTo(extractedAt);
		assertThat(RedisServerBinary.version(binary)).startsWith("6.2.");
		try (RedisServerProcess server = RedisServerProcess.start(binary, RedisServerProcess.freePort(),
				cacheDir.resolve("run"))) {
			RedisClient client = RedisClient.create(RedisURI.create(server.host(), server.port()));
			try (StatefulRedisConnection<String, String> connection = client.connect()) {
				assertThat(connection.sync().ping()).isEqualTo("PONG");
				assertThat(connection.sync().info("server")).contains("redis_version:6.2.");
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

}
