package dev.pipelininglab.run;

import dev.pipelininglab.redis.Connections;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One request of a million pipelined SETs completes with the default heap and command
 * timeout, leaves a million verified keys, and rides one pooled connection instead of
 * opening one per batch.
 */
@SpringBootTest
@SharedRedis
@SlowTest
class MillionCommandRunTests {

	@Autowired
	RunService runs;

	@Autowired
	Connections connections;

	@Autowired
	StandaloneRedis server;

	@Test
	void millionPipelinedSetsInBatchesOnOneConnection() {
		this.server.flushAll();
		RedisClient client = RedisClient.create("redis://" + this.server.host() + ":" + this.server.port());
		try (StatefulRedisConnection<String, String> observer = client.connect()) {
			this.runs.run(Specs.of(Operation.SET, Mode.PIPELINED, this.connections.defaultPolicy(), 10, 10, 0),
					RunObserver.NONE);
			long connectionsBefore = connectionsReceived(observer);

			RunResult result = this.runs.run(
					Specs.of(Operation.SET, Mode.PIPELINED, this.connections.defaultPolicy(), 1_000_000, 10_000, 5),
					RunObserver.NONE);

			assertThat(connectionsReceived(observer)).isEqualTo(connectionsBefore);
			assertThat(result.ran().batches()).isEqualTo(100);
			assertThat(result.counts().written()).isEqualTo(1_000_000);
			assertThat(result.counts().verified()).isEqualTo(1_000_000);
			assertThat(result.notes().sample()).containsExactly("value-0", "value-1", "value-2", "value-3", "value-4");
			assertThat(observer.sync().dbsize()).isEqualTo(1_000_000);
		}
		finally {
			client.shutdown();
			server.flushAll();
		}
	}

	private static long connectionsReceived(StatefulRedisConnection<String, String> observer) {
		return observer.sync()
			.info("stats")
			.lines()
			.filter((line) -> line.startsWith("total_connections_received:"))
			.mapToLong((line) -> Long.parseLong(line.substring(line.indexOf(':') + 1).trim()))
			.findFirst()
			.orElseThrow();
	}

}
