package dev.pipelininglab.testsupport;

import java.nio.file.Path;
import java.time.Duration;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.entry;

class StandaloneRedisTest {

	@Test
	void theSharedServerAnswersAndFlushAllEmptiesIt() {
		StandaloneRedis redis = RedisTestServers.standalone();
		RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			connection.sync().set("standalone-test", "value");

			redis.flushAll();

			assertThat(connection.sync().dbsize()).isZero();
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		assertThat(redis.springProperties()).containsOnly(entry("spring.data.redis.host", "127.0.0.1"),
				entry("spring.data.redis.port", Integer.toString(redis.port())));
		assertThat(RedisTestServers.standalone()).isSameAs(redis);
		assertThatIllegalStateException().isThrownBy(redis::close);
	}

	@Test
	void aNewServerIsTheCallersToStop() {
		StandaloneRedis redis = RedisTestServers.newStandalone();
		try (redis) {
			assertThat(redis.process().isAlive()).isTrue();
			assertThat(redis.port()).isNotEqualTo(RedisTestServers.standalone().port());
			assertThat(redis.process().workDir())
				.endsWith(Path.of("target", "redis-test", "standalone-" + redis.port()));
		}
		assertThat(redis.process().isAlive()).isFalse();
	}

}
