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

/** Tunes Spring Boot's Redis auto-configuration for pipelining. */
@Configuration(proxyBeanMethods = false)
class RedisConfiguration {

	@Bean
	KeySpace keySpace(KeyProperties properties) {
		return new KeySpace(properties.keyPrefix());
	}

	// One for the memory preflight: its SCAN and ItemCosts' MEMORY USAGE samples.
	@Bean
	NodeConnections.Own preflightConnection(LettuceConnectionFactory connectionFactory) {
		return new NodeConnections.Own(connectionFactory);
	}

	@Bean
	Topology topology(LettuceConnectionFactory connectionFactory) {
		return Topology.of(connectionFactory);
	}

	// Rejecting while disconnected turns an outage into an immediate 503 instead of a 60
	// s wait. Every wait is bounded by spring.data.redis.timeout already, so the
	// per-command timer (the top item in pipelined profiles) only costs; and the
	// hash-indexed stack hashes every command twice to make rare cancels cheap.
	@Bean
	LettuceClientOptionsBuilderCustomizer pipelineFriendlyClientOptions() {
		return (options) -> options.disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS)
			.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
			.useHashIndexQueue(false);
	}

	// Lettuce's back-off grows to 30 s, and with commands rejected while disconnected a
	// pooled connection stayed unusable that long after Redis was back; retrying every
	// second at most costs one attempt per connection.
	@Bean
	ClientResourcesBuilderCustomizer promptReconnect() {
		return (resources) -> resources
			.reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS));
	}

	// Boot has no property for the flush policy and its customizers cannot reach it.
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

	// Lettuce ends the event loops when the last client gives its reference back, but
	// still runs work of shut-down clients there (a sentinel topology refresh 5 s after a
	// failover), which then failed on dead loops and logged ERROR. One reference held by
	// the resources keeps the loops until the resources shut down, with a quiet period.
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

	// Boot also names Lettuce's shutdown() as destroy method, whose future Spring awaits
	// without a bound: a context close once hung on it for good.
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

	static final long RESOURCES_SHUTDOWN_MILLIS = 2_000;

}
