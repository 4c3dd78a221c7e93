package dev.pipelininglab.redis;

import java.time.Duration;

import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SentinelRedis;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The app's Lettuce event loops last as long as its client resources. A master/replica
 * connection over sentinels refreshes its topology 5 s after a sentinel event, even when
 * its client has shut down meanwhile (a context closing or paused right after a
 * failover); that refresh must not find terminated event loops, which Netty reports at
 * ERROR.
 */
@ExtendWith(OutputCaptureExtension.class)
@SlowTest
class ClientResourcesLifetimeTests {

	@Test
	void topologyRefreshDueAfterTheClientShutDownFindsLiveEventLoops(CapturedOutput output) throws Exception {
		try (SentinelRedis sentinel = RedisTestServers.newSentinel()) {
			new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withUserConfiguration(Beans.class)
				.withPropertyValues(sentinel.springProperties()
					.entrySet()
					.stream()
					.map((property) -> property.getKey() + "=" + property.getValue())
					.toArray(String[]::new))
				.withPropertyValues("spring.data.redis.lettuce.read-from=replica-preferred",
						"spring.data.redis.timeout=2s")
				.run((context) -> {
					LettuceConnectionFactory factory = context.getBean(LettuceConnectionFactory.class);
					try (RedisConnection connection = factory.getConnection()) {
						assertThat(connection.ping()).isEqualTo("PONG");
					}
					// The sentinels announce "+sdown slave" a second after this (their
					// down-after), and the connection schedules its refresh 5 s later.
					Outages.kill(sentinel.replica());
					sentinel.awaitReplicaDown(Duration.ofSeconds(10));
					// As a test context is paused, or the app stops: the client shuts
					// down, its client resources stay a moment longer.
					factory.stop();
					// Past the refresh, due 5 s after the event, nothing is logged.
					await().during(Duration.ofSeconds(6))
						.atMost(Duration.ofSeconds(8))
						.until(() -> !output.getAll().contains("Event loop shut down")
								&& !output.getAll().contains("RejectedExecutionException"));
				});
		}
	}

	/**
	 * Shut down once, with a bounded wait: Spring would otherwise also wait, without a
	 * bound, for the future of Boot's destroy method ({@code shutdown()}).
	 */
	@Test
	void clientResourcesAreShutDownOnceWithABoundedWait() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withUserConfiguration(Beans.class)
			.run((context) -> {
				String[] names = context.getBeanFactory()
					.getBeanNamesForType(io.lettuce.core.resource.ClientResources.class);
				assertThat(names).isNotEmpty();
				for (String name : names) {
					assertThat(context.getBeanFactory().getBeanDefinition(name).getDestroyMethodName()).as(name)
						.isNull();
				}
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Beans {

		@Bean
		static DestructionAwareBeanPostProcessor clientResourcesOwnTheirEventLoops() {
			return RedisConfiguration.clientResourcesOwnTheirEventLoops();
		}

		@Bean
		static org.springframework.beans.factory.config.BeanFactoryPostProcessor clientResourcesShutDownOnce() {
			return RedisConfiguration.clientResourcesShutDownOnce();
		}

	}

}
