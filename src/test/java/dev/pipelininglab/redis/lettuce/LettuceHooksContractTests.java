package dev.pipelininglab.redis.lettuce;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.LettuceVersion;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract between redis.lettuce and the Lettuce it extends, checked against real
 * test Redis servers: the hooks it overrides are still called, and a flush still reaches
 * the socket as one message per connection. Spring Boot manages the Lettuce version, so
 * an upgrade can change these internals silently; this class is what must pass on one
 * (pom.xml says so beside the dependencies). Netty's view of each write is taken at the
 * tail of the channel pipeline, where Lettuce's own writes enter it.
 */
class LettuceHooksContractTests {

	/**
	 * The Lettuce the hooks were written and last checked against. On an upgrade, read
	 * each hook named in this class against the new Lettuce sources, run the class, then
	 * move this on.
	 */
	static final String WRITTEN_AGAINST = "7.5.2";

	static final int COMMANDS = 100;

	static final Queue<Write> writes = new ConcurrentLinkedQueue<>();

	static ClientResources resources;

	@BeforeAll
	static void resources() {
		resources = ClientResources.builder().nettyCustomizer(new NettyCustomizer() {

			@Override
			public void afterChannelInitialized(Channel channel) {
				channel.pipeline().addLast(new WriteRecorder());
			}

		}).build();
	}

	@AfterAll
	static void release() {
		resources.shutdown(0, 2, TimeUnit.SECONDS);
	}

	@BeforeEach
	void forgetEarlierWrites() {
		writes.clear();
	}

	@Test
	void theLettuceInUseIsTheOneTheHooksWereCheckedAgainst() {
		assertThat(LettuceVersion.getVersion())
			.as("Lettuce %s is not %s, the version redis.lettuce's hooks (DefaultEndpoint, RedisClient.createEndpoint,"
					+ " RedisClusterClient.newStatefulRedisConnection, DefaultEndpoint.channel) were checked against:"
					+ " read them against the new sources, run this class, then update WRITTEN_AGAINST",
					LettuceVersion.getVersion(), WRITTEN_AGAINST)
			.startsWith(WRITTEN_AGAINST);
	}

	@Test
	void aStandaloneFlushReachesTheSocketAsOneMessage() throws Exception {
		StandaloneRedis redis = RedisTestServers.standalone();
		BatchWritingRedisClient client = new BatchWritingRedisClient(resources,
				RedisURI.create(redis.host(), redis.port()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			writes.clear();
			connection.setAutoFlushCommands(false);
			List<RedisFuture<String>> sets = IntStream.range(0, COMMANDS)
				.mapToObj((i) -> connection.async().set("lettuce-contract:" + i, "v"))
				.toList();
			assertThat(writes).as(hook("DefaultEndpoint.write(command) with auto-flush off wrote before the flush"))
				.isEmpty();

			connection.flushCommands();

			awaitAll(sets);
			assertThat(writes)
				.as(hook("RedisClient.createEndpoint() or DefaultEndpoint.flushCommands() no longer lets the"
						+ " pending batch go out as one message"))
				.singleElement()
				.satisfies((write) -> assertThat(write.commands()).isEqualTo(COMMANDS));
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	@Test
	void closingAStandaloneConnectionFailsWhatNoFlushHasWritten() {
		StandaloneRedis redis = RedisTestServers.standalone();
		BatchWritingRedisClient client = new BatchWritingRedisClient(resources,
				RedisURI.create(redis.host(), redis.port()));
		try {
			StatefulRedisConnection<String, String> connection = client.connect();
			connection.setAutoFlushCommands(false);
			RedisFuture<String> set = connection.async().set("lettuce-contract:unflushed", "v");

			connection.close();

			assertThat(set.toCompletableFuture())
				.as(hook("DefaultEndpoint.drainCommands() no longer hands the pending commands back on close"))
				.isCompletedExceptionally();
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	@Test
	void aClusterFlushReachesEachMasterAsOneMessage() throws Exception {
		ClusterRedis cluster = RedisTestServers.cluster();
		List<RedisURI> uris = cluster.nodes()
			.stream()
			.map((node) -> RedisURI.create(node.host(), node.port()))
			.toList();
		BatchWritingClusterClient client = new BatchWritingClusterClient(resources, uris);
		try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
			List<String> keys = IntStream.range(0, COMMANDS).mapToObj((i) -> "lettuce-contract:" + i).toList();
			// Node connections are made on first use; with auto-flush off a command for
			// one still connecting would wait in Lettuce's own buffer, not ours.
			keys.forEach((key) -> connection.sync().set(key, "warm"));
			writes.clear();
			connection.setAutoFlushCommands(false);
			List<RedisFuture<String>> sets = keys.stream().map((key) -> connection.async().set(key, "v")).toList();
			assertThat(writes)
				.as(hook("RedisClusterClient.newStatefulRedisConnection(writer, ...) no longer wraps the node writers"))
				.isEmpty();

			connection.flushCommands();

			awaitAll(sets);
			assertThat(writes)
				.as(hook("DefaultEndpoint.channel (read by BatchWritingNodeWriter) no longer holds the node's channel"))
				.hasSize(3)
				.allSatisfy((write) -> assertThat(write.commands()).isPositive());
			assertThat(writes.stream().map(Write::node).distinct()).hasSize(3);
			assertThat(writes.stream().mapToInt(Write::commands).sum()).isEqualTo(COMMANDS);
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	@Test
	void theFactoryReplacesSpringDataRedisClientsWithBatchingOnes() {
		StandaloneRedis redis = RedisTestServers.standalone();
		LettuceClientConfiguration configuration = LettuceClientConfiguration.builder()
			.clientResources(resources)
			.build();
		List<BatchWritingConnectionFactory> factories = List.of(
				new BatchWritingConnectionFactory(new RedisStandaloneConfiguration(redis.host(), redis.port()),
						configuration),
				new BatchWritingConnectionFactory(
						new RedisClusterConfiguration(List.of(RedisTestServers.cluster().nodes().get(0).host() + ":"
								+ RedisTestServers.cluster().nodes().get(0).port())),
						configuration));
		List<String> clients = new ArrayList<>();
		for (BatchWritingConnectionFactory factory : factories) {
			factory.afterPropertiesSet();
			factory.start();
			try {
				clients.add(factory.getNativeClient().getClass().getSimpleName());
				assertThat(factory.getConnection().ping()).isEqualTo("PONG");
			}
			finally {
				factory.destroy();
			}
		}
		assertThat(clients)
			.as(hook("RedisClient.redisURI or RedisClusterClient.initialUris (read by BatchWritingConnectionFactory)"))
			.containsExactly("BatchWritingRedisClient", "BatchWritingClusterClient");
	}

	@Test
	void theFactorysConfigurationAndTheClientsUriAreReadWhereTheyAre() {
		// Boot's spring.data.redis.masterreplica: a kind the factory's getters do not
		// cover.
		RedisStaticMasterReplicaConfiguration masterReplica = new RedisStaticMasterReplicaConfiguration("127.0.0.1",
				6391);
		masterReplica.setPassword("secret");
		LettuceConnectionFactory factory = new LettuceConnectionFactory(masterReplica);
		assertThat(PrivateState.configuration(factory))
			.as(hook("LettuceConnectionFactory.configuration (read by RouteBuilder)"))
			.isSameAs(masterReplica);
		RedisURI uri = RedisURI.Builder.redis("127.0.0.1", 6391)
			.withPassword("secret".toCharArray())
			.withSsl(true)
			.build();
		RedisClient client = RedisClient.create(resources, uri);
		try {
			assertThat(PrivateState.redisUri(client)).as(hook("RedisClient.redisURI (read by ServerCounters)"))
				.isSameAs(uri);
		}
		finally {
			client.shutdown();
		}
	}

	private static String hook(String what) {
		return "Lettuce " + LettuceVersion.getVersion() + " (hooks written against " + WRITTEN_AGAINST + "): " + what;
	}

	private static void awaitAll(List<RedisFuture<String>> futures) throws Exception {
		for (RedisFuture<String> future : futures) {
			assertThat(future.get(10, TimeUnit.SECONDS)).isEqualTo("OK");
		}
	}

	/** One message handed to a channel: how many commands it carried, and where to. */
	record Write(SocketAddress node, int commands) {

	}

	/**
	 * Records the writes that carry SET commands; the handshake and PINGs are not ours.
	 */
	static final class WriteRecorder extends ChannelOutboundHandlerAdapter {

		@Override
		public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
			int sets = 0;
			Collection<?> commands = (message instanceof Collection<?> collection) ? collection : List.of(message);
			for (Object command : commands) {
				if (command instanceof RedisCommand<?, ?, ?> redis && "SET".equals(redis.getType().toString())) {
					sets++;
				}
			}
			if (sets > 0) {
				writes.add(new Write(context.channel().remoteAddress(), sets));
			}
			super.write(context, message, promise);
		}

	}

}
