package dev.pipelininglab.redis;

import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up line that names the Redis the lab is about to write to. */
@ExtendWith(OutputCaptureExtension.class)
class RedisInUseTests {

	@Test
	void namesTopologyNodesAndVersionOfARedisThatAnswers(CapturedOutput output) {
		StandaloneRedis server = RedisTestServers.standalone();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withUserConfiguration(Beans.class)
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port())
			.run((context) -> {
				String version = context.getBean(StringRedisTemplate.class)
					.execute((RedisCallback<String>) (
							connection) -> connection.serverCommands().info("server").getProperty("redis_version"));
				context.getBean(RedisInUse.class).describe();
				assertThat(output).contains("INFO")
					.contains("Using standalone Redis " + version + " at 127.0.0.1:" + server.port() + " (configured: "
							+ server.host() + ":" + server.port() + ")");
				assertThat(output).doesNotContain("not on loopback");
			});
	}

	@Test
	void tellsLoopbackFromOtherAddresses() {
		assertThat(RedisInUse.loopback("127.0.0.1:6379")).isTrue();
		assertThat(RedisInUse.loopback("127.8.9.10:6379")).isTrue();
		assertThat(RedisInUse.loopback("localhost:6379")).isTrue();
		assertThat(RedisInUse.loopback("[::1]:6379")).isTrue();
		assertThat(RedisInUse.loopback("10.0.0.5:6379")).isFalse();
		assertThat(RedisInUse.loopback("redis.example.com:6379")).isFalse();
		assertThat(RedisInUse.loopback("[2001:db8::1]:6379")).isFalse();
	}

	@Configuration(proxyBeanMethods = false)
	static class Beans {

		@Bean
		Topology topology(LettuceConnectionFactory factory) {
			return Topology.of(factory);
		}

		@Bean
		Reconnects reconnects(ClientResources resources, LettuceConnectionFactory factory) {
			return new Reconnects(resources, factory);
		}

		@Bean
		ServerCounters serverCounters(LettuceConnectionFactory factory, Reconnects reconnects) {
			return new ServerCounters(factory, reconnects);
		}

		@Bean
		RedisInUse redisInUse(Topology topology, ServerCounters counters, LettuceConnectionFactory factory) {
			return new RedisInUse(topology, counters, factory);
		}

	}

}
