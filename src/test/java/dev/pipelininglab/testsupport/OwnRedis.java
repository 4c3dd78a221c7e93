package dev.pipelininglab.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextCustomizerFactories;

/**
 * This test class gets a Redis of its own, to kill, pause, reconfigure or watch with
 * MONITOR: started with the class's application context, which the app under test (a
 * {@code @SpringBootTest}) reaches through {@code spring.data.redis.*} with its own local
 * Redis off, and stopped after the app when that context closes at the end of the class.
 * The servers are a bean of the context ({@link StandaloneRedis}, {@link SentinelRedis}
 * or {@link ClusterRedis}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@DirtiesContext
@ContextCustomizerFactories(RedisForTheApp.Factory.class)
public @interface OwnRedis {

	RedisTopology value() default RedisTopology.STANDALONE;

}
