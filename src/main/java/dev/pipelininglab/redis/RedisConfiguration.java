package dev.pipelininglab.redis;

import dev.pipelininglab.LabProperties;
import io.lettuce.core.ClientOptions.DisconnectedBehavior;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

@Configuration(proxyBeanMethods = false)
class RedisConfiguration {

	@Bean
	KeySpace keySpace(LabProperties properties) {
		return new KeySpace(properties.keyPrefix());
	}

	@Bean
	Topology topology(LettuceConnectionFactory connectionFactory) {
		return Topology.of(connectionFactory);
	}

	/**
	 * Lettuce queues commands issued while it is disconnected until they time out (60 s by default), so a request
	 * against a dead Redis would hang that long. Rejecting them turns an outage into an immediate 503; Lettuce
	 * still reconnects by itself, so the app recovers when Redis comes back.
	 */
	@Bean
	LettuceClientOptionsBuilderCustomizer rejectCommandsWhileDisconnected() {
		return (options) -> options.disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS);
	}

	/**
	 * Spring Boot has no property for the pipelining flush policy and its builder customizers cannot reach it, so
	 * it is set on the auto-configured factory here. Static, as bean post-processors must be created early.
	 */
	@Bean
	static BeanPostProcessor pipeliningFlushPolicyPostProcessor(ObjectProvider<LabProperties> properties) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessBeforeInitialization(Object bean, String beanName) {
				if (bean instanceof LettuceConnectionFactory factory) {
					factory.setPipeliningFlushPolicy(properties.getObject().pipeline().flushPolicy().toLettuce());
				}
				return bean;
			}

		};
	}

}
