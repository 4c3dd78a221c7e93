package dev.pipelininglab.redis;

import java.util.Arrays;
import java.util.List;

import dev.pipelininglab.config.LabConfiguration;
import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SpringRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.scheduling.annotation.EnableScheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The Jedis connector on real Redis servers: made only when asked for, named so the
 * server can tell its connections apart, closed with the app; and what Spring Data
 * Redis's Jedis connector really does with {@code executePipelined} on a cluster.
 */
class JedisConnectorTests {

	private static ApplicationContextRunner app(SpringRedis redis) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, TaskSchedulingAutoConfiguration.class))
			.withUserConfiguration(Enable.class, RedisConfiguration.class, RouteCache.class)
			.withPropertyValues(redis.springProperties()
				.entrySet()
				.stream()
				.map((entry) -> entry.getKey() + "=" + entry.getValue())
				.toArray(String[]::new));
	}

	@Test
	void aDefaultStartOpensNoJedisConnectionAndTheFirstJedisRequestMakesThePoolWhichClosesWithTheApp() {
		StandaloneRedis server = RedisTestServers.standalone();
		app(server).run((context) -> {
			// Jedis is on the class path, yet Spring Boot keeps Lettuce as the connection
			// factory.
			assertThat(context).doesNotHaveBean(JedisConnectionFactory.class);
			RouteCache connections = context.getBean(RouteCache.class);
			connections.primary().template().opsForValue().set("jedis-test:a", "1");
			assertThat(jedisClients(server)).isEmpty();

			Route route = connections.lease(Connector.JEDIS, Sharing.POOLED, connections.defaultPolicy(), null, null)
				.route();
			assertThat(route.factory()).isInstanceOf(JedisConnectionFactory.class);
			assertThat(route.flushPolicy()).isNull();
			route.template().opsForValue().set("jedis-test:b", "2");
			assertThat(route.template().opsForValue().get("jedis-test:a")).isEqualTo("1");
			assertThat(jedisClients(server)).isNotEmpty()
				.allSatisfy((line) -> assertThat(line).contains(route.clientName()));
			assertThat(
					connections.lease(Connector.JEDIS, Sharing.POOLED, FlushPolicy.FLUSH_ON_CLOSE, null, null).route())
				.as("one Jedis route, whatever the flush policy")
				.isSameAs(route);
			route.template().delete(List.of("jedis-test:a", "jedis-test:b"));
		});
		assertThat(jedisClients(server)).isEmpty();
	}

	@Test
	void jedisHasNoSharedConnection() {
		app(RedisTestServers.standalone())
			.run((context) -> assertThatExceptionOfType(RouteCache.ConnectorUnsupportedException.class)
				.isThrownBy(() -> context.getBean(RouteCache.class)
					.lease(Connector.JEDIS, Sharing.SHARED, FlushPolicy.FLUSH_ON_CLOSE, null, null))
				.withMessageContaining("pooled"));
	}

	/**
	 * Spring Data Redis 4.1's {@code JedisClusterConnection} refuses to open a pipeline;
	 * the lab answers 400 for {@code connector=jedis} pipelines on a cluster because of
	 * this, while blocking calls (the loop) work.
	 */
	@Test
	void onAClusterJedisRefusesToPipelineButRunsBlockingCalls() {
		ClusterRedis cluster = RedisTestServers.cluster();
		app(cluster).run((context) -> {
			RouteCache connections = context.getBean(RouteCache.class);
			Route route = connections.lease(Connector.JEDIS, Sharing.POOLED, connections.defaultPolicy(), null, null)
				.route();
			assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
				.isThrownBy(() -> route.template().executePipelined((RedisCallback<Object>) (connection) -> {
					connection.stringCommands().set("jedis-test:{x}1".getBytes(), "1".getBytes());
					return null;
				}))
				.withMessageContaining("Pipeline is not supported for JedisClusterConnection");
			route.template().opsForValue().set("jedis-test:c", "3");
			assertThat(route.template().opsForValue().get("jedis-test:c")).isEqualTo("3");
			route.template().delete("jedis-test:c");
		});
	}

	/**
	 * The standalone server's connections whose name marks them as the lab's Jedis ones.
	 */
	private static List<String> jedisClients(StandaloneRedis server) {
		RedisClient client = RedisClient.create("redis://" + server.host() + ":" + server.port());
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return Arrays.stream(connection.sync().clientList().split("\n"))
				.filter((line) -> line.contains("-jedis-"))
				.toList();
		}
		finally {
			client.shutdown();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@Import(LabConfiguration.class)
	static class Enable {

	}

}
