package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.pipelininglab.config.LabConfiguration;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.DirectFieldAccessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.annotation.EnableScheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The flush policy set under {@code lab.pipeline.flush-policy} is the one measured
 * pipelines really use, with either way of handing flushes to Netty
 * ({@code lab.pipeline.writes}), observed from a second client watching when the commands
 * reach a real Redis.
 */
class ConfiguredFlushPolicyTests {

	/** Long enough for a flushed command to arrive on loopback many times over. */
	private static final Duration SETTLE = Duration.ofMillis(400);

	static StandaloneRedis server;

	static RedisClient observerClient;

	static RedisCommands<String, String> observer;

	@BeforeAll
	static void observe() {
		server = RedisTestServers.standalone();
		observerClient = RedisClient.create("redis://" + server.host() + ":" + server.port());
		StatefulRedisConnection<String, String> connection = observerClient.connect();
		observer = connection.sync();
	}

	@AfterAll
	static void stopObserving() {
		observerClient.shutdown();
	}

	@BeforeEach
	void empty() {
		server.flushAll();
	}

	private ApplicationContextRunner app(String flushPolicy, Writes writes) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, TaskSchedulingAutoConfiguration.class))
			.withUserConfiguration(Enable.class, RedisConfiguration.class, RouteCache.class)
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"lab.pipeline.flush-policy=" + flushPolicy, "lab.pipeline.writes=" + writes.label());
	}

	/**
	 * The factory runs use: the auto-configured one, or with per-flush writes one of the
	 * lab's own.
	 */
	private static LettuceConnectionFactory measured(AssertableApplicationContext context) {
		return context.getBean(RouteCache.class).primary().lettuce();
	}

	@ParameterizedTest
	@EnumSource(Writes.class)
	void runsUseTheConfiguredWaysOfWriting(Writes writes) {
		app("buffered-3", writes).run((context) -> {
			Route route = context.getBean(RouteCache.class).primary();
			assertThat(route.writes()).isEqualTo(writes);
			assertThat(route.lettuce().getNativeClient())
				.satisfies((client) -> assertThat(client.getClass().getSimpleName().equals("BatchWritingRedisClient"))
					.isEqualTo(writes == Writes.PER_FLUSH));
			assertThat(route.factory() == context.getBean(LettuceConnectionFactory.class))
				.isEqualTo(writes == Writes.PER_COMMAND);
		});
	}

	/**
	 * A static master/replica factory answers its standalone getter with localhost:6379;
	 * a route built from that would measure some other Redis.
	 */
	@ParameterizedTest
	@EnumSource(Writes.class)
	void routesKeepAStaticMasterReplicaConfiguration(Writes writes) {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, TaskSchedulingAutoConfiguration.class))
			.withUserConfiguration(Enable.class, RedisConfiguration.class, RouteCache.class)
			.withPropertyValues("spring.data.redis.masterreplica.nodes=" + server.host() + ":" + server.port(),
					"lab.pipeline.flush-policy=buffered-3", "lab.pipeline.writes=" + writes.label())
			.run((context) -> {
				RouteCache connections = context.getBean(RouteCache.class);
				RouteCache.Lease lease = connections.lease(Connector.LETTUCE, Sharing.SHARED,
						FlushPolicy.FLUSH_ON_CLOSE, null, null);
				for (Route route : List.of(connections.primary(), lease.route())) {
					assertThat(new DirectFieldAccessor(route.factory()).getPropertyValue("configuration"))
						.isInstanceOfSatisfying(RedisStaticMasterReplicaConfiguration.class,
								(configuration) -> assertThat(configuration.getNodes()).singleElement()
									.satisfies((node) -> assertThat(node.getPort()).isEqualTo(server.port())));
					route.template().opsForValue().set("mr-" + route.flushPolicy(), "v");
					assertThat(observer.get("mr-" + route.flushPolicy())).isEqualTo("v");
				}
				lease.close();
			});
	}

	@ParameterizedTest
	@EnumSource(Writes.class)
	void flushOnCloseHoldsEveryCommandUntilThePipelineCloses(Writes writes) {
		onPipelinedConnection("flush-on-close", writes, (connection) -> {
			set(connection, "a");
			set(connection, "b");
			stillAbsent("a", "b");
			connection.closePipeline();
			assertThat(observer.exists("a", "b")).isEqualTo(2);
		});
	}

	@ParameterizedTest
	@EnumSource(Writes.class)
	void flushEachCommandSendsCommandsAsTheyAreIssued(Writes writes) {
		onPipelinedConnection("flush-each-command", writes, (connection) -> {
			set(connection, "a");
			await().atMost(Duration.ofSeconds(5)).until(() -> observer.exists("a") == 1);
			connection.closePipeline();
		});
	}

	@ParameterizedTest
	@EnumSource(Writes.class)
	void bufferedFlushesEveryNCommands(Writes writes) {
		onPipelinedConnection("buffered-3", writes, (connection) -> {
			set(connection, "a");
			set(connection, "b");
			stillAbsent("a", "b");
			set(connection, "c");
			await().atMost(Duration.ofSeconds(5)).until(() -> observer.exists("a", "b", "c") == 3);
			set(connection, "d");
			stillAbsent("d");
			connection.closePipeline();
			assertThat(observer.exists("d")).isOne();
		});
	}

	/** None of {@code keys} reaches Redis for {@link #SETTLE}: they were not flushed. */
	private static void stillAbsent(String... keys) {
		await().during(SETTLE).atMost(SETTLE.plusSeconds(2)).until(() -> observer.exists(keys) == 0);
	}

	/**
	 * Issues {@code commands} on a pipelined connection of the factory runs use, in an
	 * app with this flush policy and way of writing.
	 */
	private void onPipelinedConnection(String flushPolicy, Writes writes, PipelinedCommands commands) {
		app(flushPolicy, writes).run((context) -> {
			try (RedisConnection connection = pipelinedConnection(measured(context))) {
				commands.issue(connection);
			}
		});
	}

	@FunctionalInterface
	private interface PipelinedCommands {

		void issue(RedisConnection connection) throws Exception;

	}

	private static RedisConnection pipelinedConnection(LettuceConnectionFactory factory) {
		RedisConnection connection = factory.getConnection();
		connection.openPipeline();
		return connection;
	}

	private static void set(RedisConnection connection, String key) {
		connection.stringCommands().set(key.getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@Import(LabConfiguration.class)
	static class Enable {

	}

}
