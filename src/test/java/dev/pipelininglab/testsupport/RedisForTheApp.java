package dev.pipelininglab.testsupport;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.TestContextAnnotationUtils.AnnotationDescriptor;

/**
 * What {@link SharedRedis} and {@link OwnRedis} do to a test's application context. With
 * {@code @SharedRedis} the topology is the context's identity: the test classes whose
 * configuration is otherwise alike share one started app, as Spring's context cache
 * intends (a context per class cost a start-up of a second or more each, nine times over
 * for the MockMvc classes on the shared standalone alone). With {@code @OwnRedis} the
 * class that carries the annotation is part of it too, so no other class is handed a
 * context whose servers it kills.
 */
record RedisForTheApp(@Nullable Class<?> declaredOn, RedisTopology topology, boolean own) implements ContextCustomizer {

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
		SpringRedis redis = this.own ? this.topology.fresh() : this.topology.shared();
		Map<String, Object> properties = new LinkedHashMap<>(redis.springProperties());
		properties.put("lab.local-redis.enabled", "false");
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("testRedis", properties));
		context.getBeanFactory().registerSingleton("testRedis", redis);
		if (this.own) {
			context.getBeanFactory().registerSingleton("stopTestRedis", new StopWithTheApp(redis::close));
		}
	}

	static final class Factory implements ContextCustomizerFactory {

		@Override
		public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
				List<ContextConfigurationAttributes> configAttributes) {
			AnnotationDescriptor<OwnRedis> own = TestContextAnnotationUtils.findAnnotationDescriptor(testClass,
					OwnRedis.class);
			if (own != null) {
				return new RedisForTheApp(own.getDeclaringClass(), own.getAnnotation().value(), true);
			}
			AnnotationDescriptor<SharedRedis> shared = TestContextAnnotationUtils.findAnnotationDescriptor(testClass,
					SharedRedis.class);
			return (shared != null) ? new RedisForTheApp(null, shared.getAnnotation().value(), false) : null;
		}

	}

}
