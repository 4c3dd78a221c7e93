package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.pipelininglab.LabProperties;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The flush policy set under {@code lab.pipeline.flush-policy} is the one the auto-configured factory's pipelines
 * really use, observed from a second client watching when the commands reach a real Redis.
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

	private ApplicationContextRunner app(String flushPolicy) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withUserConfiguration(Enable.class, RedisConfiguration.class)
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"lab.pipeline.flush-policy=" + flushPolicy);
	}

	@Test
	void flushOnCloseHoldsEveryCommandUntilThePipelineCloses() {
		app("flush-on-close").run((context) -> {
			try (RedisConnection connection = pipelinedConnection(context.getBean(LettuceConnectionFactory.class))) {
				set(connection, "a");
				set(connection, "b");
				Thread.sleep(SETTLE.toMillis());
				assertThat(observer.exists("a", "b")).isZero();
				connection.closePipeline();
				assertThat(observer.exists("a", "b")).isEqualTo(2);
			}
		});
	}

	@Test
	void flushEachCommandSendsCommandsAsTheyAreIssued() {
		app("flush-each-command").run((context) -> {
			try (RedisConnection connection = pipelinedConnection(context.getBean(LettuceConnectionFactory.class))) {
				set(connection, "a");
				await().atMost(Duration.ofSeconds(5)).until(() -> observer.exists("a") == 1);
				connection.closePipeline();
			}
		});
	}

	@Test
	void bufferedFlushesEveryNCommands() {
		app("buffered-3").run((context) -> {
			try (RedisConnection connection = pipelinedConnection(context.getBean(LettuceConnectionFactory.class))) {
				set(connection, "a");
				set(connection, "b");
				Thread.sleep(SETTLE.toMillis());
				assertThat(observer.exists("a", "b")).isZero();
				set(connection, "c");
				await().atMost(Duration.ofSeconds(5)).until(() -> observer.exists("a", "b", "c") == 3);
				set(connection, "d");
				Thread.sleep(SETTLE.toMillis());
				assertThat(observer.exists("d")).isZero();
				connection.closePipeline();
				assertThat(observer.exists("d")).isOne();
			}
		});
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
	@EnableConfigurationProperties(LabProperties.class)
	static class Enable {

	}

}
