package dev.pipelininglab.testsupport;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@SlowTest
class SentinelRedisTest {

	private static SentinelRedis sentinel;

	private static final RedisClient client = TestLettuce.client();

	@BeforeAll
	static void setUp() {
		sentinel = RedisTestServers.sentinel();
	}

	@Test
	void everySentinelReportsTheMasterAndItsReplica() {
		for (int port : sentinel.sentinelPorts()) {
			try (StatefulRedisSentinelConnection<String, String> connection = client
				.connectSentinel(RedisURI.create("127.0.0.1", port))) {
				InetSocketAddress master = (InetSocketAddress) connection.sync()
					.getMasterAddrByName(SentinelRedis.MASTER_NAME);
				List<Map<String, String>> replicas = connection.sync().replicas(SentinelRedis.MASTER_NAME);

				assertThat(master.getPort()).isEqualTo(sentinel.master().port());
				assertThat(replicas).singleElement()
					.satisfies((replica) -> assertThat(replica)
						.containsEntry("port", Integer.toString(sentinel.replica().port()))
						.containsEntry("flags", "slave"));
				assertThat(connection.sync().master(SentinelRedis.MASTER_NAME))
					.containsEntry("num-other-sentinels", "2")
					.containsEntry("quorum", "2");
			}
		}
		assertThat(sentinel.currentMaster()).isSameAs(sentinel.master());
	}

	@Test
	void aSentinelAwareClientWritesToTheMasterAndFlushAllEmptiesBothDataNodes() {
		RedisURI.Builder uri = RedisURI.builder().withSentinelMasterId(SentinelRedis.MASTER_NAME);
		sentinel.sentinelPorts().forEach((port) -> uri.withSentinel("127.0.0.1", port));

		try (StatefulRedisConnection<String, String> connection = client.connect(uri.build())) {
			connection.sync().set("sentinel-test", "written");
			assertThat(connection.sync().info("server")).contains("tcp_port:" + sentinel.master().port());
		}
		try (StatefulRedisConnection<String, String> replica = client
			.connect(RedisURI.create("127.0.0.1", sentinel.replica().port()))) {
			await().atMost(Duration.ofSeconds(5)).until(() -> "written".equals(replica.sync().get("sentinel-test")));

			sentinel.flushAll();

			assertThat(replica.sync().dbsize()).isZero();
		}
	}

	@Test
	void springPropertiesNameTheMasterAndAllSentinels() {
		assertThat(sentinel.springProperties()).containsEntry("spring.data.redis.sentinel.master", "mymaster")
			.containsEntry("spring.data.redis.sentinel.nodes",
					"127.0.0.1:" + sentinel.sentinelPorts().get(0) + ",127.0.0.1:" + sentinel.sentinelPorts().get(1)
							+ ",127.0.0.1:" + sentinel.sentinelPorts().get(2))
			.hasSize(2);
	}

}
