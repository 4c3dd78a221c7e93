package dev.pipelininglab.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.context.ContextCustomizerFactories;

/**
 * The app under test (a {@code @SpringBootTest}) talks to the shared test Redis of this
 * topology through {@code spring.data.redis.*}, with the app's own local Redis off. The
 * server is a bean of the context ({@link StandaloneRedis}, {@link SentinelRedis} or
 * {@link ClusterRedis}) for tests that look at it; they may write and flush, but must not
 * kill, pause or reconfigure it: other classes use it too.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ContextCustomizerFactories(RedisForTheApp.Factory.class)
public @interface SharedRedis {

	RedisTopology value() default RedisTopology.STANDALONE;

}
