package dev.pipelininglab.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.Transports;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Tunes Spring Boot's Redis auto-configuration for pipelining: the key space, the
 * topology, client options, the flush policy and the lifetime of client resources.
 */
@Configuration(proxyBeanMethods = false)
class RedisConfiguration {

	@Bean
	KeySpace keySpace(KeyProperties properties) {
		return new KeySpace(properties.keyPrefix());
	}

	@Bean
	Topology topology(LettuceConnectionFactory connectionFactory) {
		return Topology.of(connectionFactory);
	}

	/**
	 * Client options tuned for an app whose job is to push commands:
	 * <ul>
	 * <li>Lettuce queues commands issued while disconnected until they time out (60 s by
	 * default), so a request against a dead Redis would hang that long. Rejecting them
	 * turns an outage into an immediate 503; Lettuce still reconnects by itself, so the
	 * app recovers when Redis comes back.</li>
	 * <li>Boot switches on Lettuce's per-command timeout, which schedules a timer task
	 * for every command written. Spring Data Redis already bounds every wait with
	 * {@code spring.data.redis.timeout} (blocking calls and {@code closePipeline()}
	 * alike), and so do our own async runs, so the per-command timer only costs: it was
	 * the largest single item in profiles of pipelined runs.</li>
	 * <li>Lettuce's hash-indexed command stack makes cancelling one command cheap at the
	 * price of hashing every command twice; commands are cancelled only on timeouts here,
	 * so the plain queue is the better trade.</li>
	 * </ul>
	 */
	@Bean
	LettuceClientOptionsBuilderCustomizer pipelineFriendlyClientOptions() {
		return (options) -> options.disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS)
			.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
			.useHashIndexQueue(false);
	}

	/**
	 * Boot's Redis health contributor waits as long as Redis does; this one answers DOWN
	 * after {@code lab.health.redis-timeout}.
	 */
	@Bean
	static BeanPostProcessor redisHealthTimeoutPostProcessor(ObjectProvider<HealthProperties> properties) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				return "redisHealthContributor".equals(beanName)
						? HealthTimeout.bound(bean, properties.getObject().redisTimeout()) : bean;
			}

		};
	}

	/**
	 * Lettuce reconnects with an exponential back-off that grows to 30 s. With commands
	 * rejected while disconnected, each pooled connection stayed unusable until its next
	 * attempt: after an outage of 20 s or more, requests got 503 for up to 30 s after
	 * Redis was back. Attempts every second at most make recovery take about a second;
	 * the cost while Redis is down is one connection attempt per pooled connection per
	 * second, on loopback or a LAN.
	 */
	@Bean
	ClientResourcesBuilderCustomizer promptReconnect() {
		return (resources) -> resources
			.reconnectDelay(Delay.exponential(RECONNECT_DELAY_MIN, RECONNECT_DELAY_MAX, 2, TimeUnit.MILLISECONDS));
	}

	static final Duration RECONNECT_DELAY_MIN = Duration.ofMillis(50);

	static final Duration RECONNECT_DELAY_MAX = Duration.ofSeconds(1);

	/**
	 * Spring Boot has no property for the pipelining flush policy and its builder
	 * customizers cannot reach it, so it is set on the auto-configured factory here.
	 * Static, as bean post-processors must be created early.
	 */
	@Bean
	static BeanPostProcessor pipeliningFlushPolicyPostProcessor(ObjectProvider<PipelineProperties> properties) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessBeforeInitialization(Object bean, String beanName) {
				if (bean instanceof LettuceConnectionFactory factory) {
					factory.setPipeliningFlushPolicy(properties.getObject().flushPolicy().toLettuce());
				}
				return bean;
			}

		};
	}

	/**
	 * The event loops live as long as the client resources, not as long as the last
	 * client using them.
	 * <p>
	 * Lettuce counts references to the event loops of shared client resources: each
	 * client takes one on its first connect and gives it back on shutdown, and the last
	 * one back terminates them. But a client keeps its event loops after shutdown, and
	 * Lettuce still runs work of shut-down clients on the resources' task threads: a
	 * master/replica connection over sentinels schedules its topology refresh there, 5 s
	 * after a sentinel event (as in a failover), and does not cancel it on close. Run
	 * after the last client's shutdown (the connection factory's on stop, a route's in
	 * {@link Connections#destroy()}), the refresh connected through terminated event
	 * loops and Netty logged "Failed to submit a listener notification task. Event loop
	 * shut down?" at ERROR. Holding one reference for the resources themselves keeps the
	 * event loops up until the resources shut down, which stops the task threads
	 * (cancelling such scheduled work) together with the event loops.
	 * <p>
	 * That shutdown has a quiet period: Lettuce's own {@code shutdown()} (which Spring
	 * Boot calls) has none, so work already queued (a reconnect, a handshake timeout of a
	 * Redis that was down or stalled) would still reach event loops that are gone.
	 */
	@Bean
	static DestructionAwareBeanPostProcessor clientResourcesOwnTheirEventLoops() {
		return new DestructionAwareBeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof ClientResources resources) {
					resources.eventLoopGroupProvider().allocate(Transports.eventLoopGroupClass());
				}
				return bean;
			}

			@Override
			public void postProcessBeforeDestruction(Object bean, String beanName) {
				if (bean instanceof ClientResources resources) {
					resources.shutdown(RESOURCES_QUIET_MILLIS, RESOURCES_SHUTDOWN_MILLIS, TimeUnit.MILLISECONDS)
						.awaitUninterruptibly(RESOURCES_SHUTDOWN_MILLIS + RESOURCES_QUIET_MILLIS);
				}
			}

			@Override
			public boolean requiresDestruction(Object bean) {
				return bean instanceof ClientResources;
			}

		};
	}

	/**
	 * The client resources are shut down once, by
	 * {@link #clientResourcesOwnTheirEventLoops()}, with a bounded wait. Spring Boot also
	 * names Lettuce's {@code shutdown()} as their destroy method, and Spring waits for
	 * the future it returns without a bound: in one full test run that future never
	 * completed and a context close hung for good.
	 */
	@Bean
	static BeanFactoryPostProcessor clientResourcesShutDownOnce() {
		return (beanFactory) -> {
			for (String name : beanFactory.getBeanNamesForType(ClientResources.class, false, false)) {
				if (beanFactory.getBeanDefinition(name) instanceof AbstractBeanDefinition definition) {
					definition.setDestroyMethodName(null);
				}
			}
		};
	}

	static final long RESOURCES_QUIET_MILLIS = 200;

	/** Lettuce's own default. */
	static final long RESOURCES_SHUTDOWN_MILLIS = 2_000;

}
