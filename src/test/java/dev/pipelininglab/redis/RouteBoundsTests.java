package dev.pipelininglab.redis;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.pipelininglab.config.LabConfiguration;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.annotation.EnableScheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * However many flush policies requests ask for, the instance keeps a bounded number of
 * connection routes: the least recently used is evicted and closed once no run holds it,
 * and a run that still holds an evicted route finishes on it.
 */
@ExtendWith(OutputCaptureExtension.class)
class RouteBoundsTests {

	private final StandaloneRedis server = RedisTestServers.standalone();

	private ApplicationContextRunner app() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, TaskSchedulingAutoConfiguration.class))
			.withUserConfiguration(Enable.class, RedisConfiguration.class, RouteCache.class)
			.withPropertyValues("spring.data.redis.host=" + this.server.host(),
					"spring.data.redis.port=" + this.server.port());
	}

	@Test
	void moreDistinctPoliciesThanRouteSlotsEvictTheLeastRecentlyUsed() {
		app().run((context) -> {
			RouteCache connections = context.getBean(RouteCache.class);
			List<LettuceConnectionFactory> factories = new ArrayList<>();
			for (int size = 1; size <= RouteCache.MAX_ROUTES + 4; size++) {
				try (RouteCache.Lease lease = lease(connections, FlushPolicy.buffered(size), null)) {
					lease.route().template().opsForValue().set("bounds", "v" + size);
					factories.add(lease.route().lettuce());
				}
			}
			assertThat(connections.kept()).isEqualTo(RouteCache.MAX_ROUTES);
			// The four used first were evicted and closed; the rest are kept, working.
			assertThat(factories.subList(0, 4)).noneMatch(LettuceConnectionFactory::isRunning);
			assertThat(factories.subList(4, factories.size())).allMatch(LettuceConnectionFactory::isRunning);
			// The default route never counts against the bound.
			assertThat(connections.primary().template().opsForValue().get("bounds"))
				.isEqualTo("v" + (RouteCache.MAX_ROUTES + 4));
		});
	}

	/**
	 * An unused route's client would keep refreshing and reconnecting (and logging
	 * through every outage); it is closed after the idle timeout and built again on
	 * demand, while a route a run still holds stays open however long the run takes.
	 */
	@Test
	void aRouteNoRunUsesIsClosedAfterTheIdleTimeoutAndBuiltAgainOnDemand() {
		app().withPropertyValues("lab.pipeline.route-idle-timeout=300ms").run((context) -> {
			RouteCache connections = context.getBean(RouteCache.class);
			RouteCache.Lease held = lease(connections, FlushPolicy.buffered(7), null);
			LettuceConnectionFactory idle;
			try (RouteCache.Lease lease = lease(connections, FlushPolicy.buffered(3), null)) {
				idle = lease.route().lettuce();
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> !idle.isRunning());
			assertThat(connections.kept()).isEqualTo(1);
			assertThat(held.route().lettuce().isRunning()).isTrue();
			held.route().template().opsForValue().set("idle", "held route works");
			held.close();
			try (RouteCache.Lease again = lease(connections, FlushPolicy.buffered(3), null)) {
				assertThat(again.route().lettuce()).isNotSameAs(idle);
				assertThat(again.route().template().opsForValue().get("idle")).isEqualTo("held route works");
			}
		});
	}

	/**
	 * Five hundred ad-hoc routes (flush policies, and added round trips with their relays
	 * and resources) come and go; the threads and file descriptors they held go with
	 * them.
	 */
	@Test
	void churningFiveHundredRoutesLeavesNoThreadsOrDescriptorsBehind(CapturedOutput output) {
		app().withPropertyValues("lab.pipeline.route-idle-timeout=200ms").run((context) -> {
			RouteCache connections = context.getBean(RouteCache.class);
			// One of each kind first: what the app starts once (shared loops) is not a
			// leak.
			use(connections, FlushPolicy.buffered(1), null);
			use(connections, FlushPolicy.buffered(1), Duration.ofMillis(1));
			await().atMost(Duration.ofSeconds(30)).until(() -> connections.kept() == 0);
			int threads = ManagementFactory.getThreadMXBean().getThreadCount();
			long descriptors = openDescriptors();
			for (int size = 2; size <= 461; size++) {
				use(connections, FlushPolicy.buffered(size), null);
			}
			for (int micros = 1; micros <= 40; micros++) {
				use(connections, FlushPolicy.buffered(1), Duration.ofMillis(1).plusNanos(micros * 1000L));
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> connections.kept() == 0);
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				assertThat(ManagementFactory.getThreadMXBean().getThreadCount()).as("threads")
					.isLessThanOrEqualTo(threads + 4);
				assertThat(openDescriptors()).as("file descriptors").isLessThanOrEqualTo(descriptors + 10);
			});
			assertThat(connections.primary().template().opsForValue().get("churn")).isEqualTo("x");
			assertThat(output).doesNotContain("was not shut down properly");
		});
	}

	private static void use(RouteCache connections, FlushPolicy policy, Duration rtt) {
		try (RouteCache.Lease lease = lease(connections, policy, rtt)) {
			lease.route().template().opsForValue().set("churn", "x");
		}
	}

	private static long openDescriptors() throws java.io.IOException {
		try (java.util.stream.Stream<java.nio.file.Path> fds = java.nio.file.Files
			.list(java.nio.file.Path.of("/proc/self/fd"))) {
			return fds.count();
		}
	}

	@Test
	void anEvictedRouteStaysOpenUntilItsRunReleasesIt() {
		app().run((context) -> {
			RouteCache connections = context.getBean(RouteCache.class);
			RouteCache.Lease held = lease(connections, FlushPolicy.buffered(1000), null);
			for (int size = 1; size <= RouteCache.MAX_ROUTES; size++) {
				lease(connections, FlushPolicy.buffered(size), null).close();
			}
			LettuceConnectionFactory factory = held.route().lettuce();
			assertThat(factory.isRunning()).isTrue();
			held.route().template().opsForValue().set("held", "still works");
			held.close();
			assertThat(factory.isRunning()).isFalse();
			assertThat(connections.primary().template().opsForValue().get("held")).isEqualTo("still works");
		});
	}

	@Test
	void reusingARouteKeepsItFromEviction() {
		app().run((context) -> {
			RouteCache connections = context.getBean(RouteCache.class);
			RouteCache.Lease first = lease(connections, FlushPolicy.FLUSH_ON_CLOSE, null);
			LettuceConnectionFactory kept = first.route().lettuce();
			first.close();
			for (int size = 1; size <= RouteCache.MAX_ROUTES * 2; size++) {
				lease(connections, FlushPolicy.buffered(size), null).close();
				lease(connections, FlushPolicy.FLUSH_ON_CLOSE, null).close();
			}
			try (RouteCache.Lease again = lease(connections, FlushPolicy.FLUSH_ON_CLOSE, null)) {
				assertThat(again.route().lettuce()).isSameAs(kept);
				assertThat(kept.isRunning()).isTrue();
			}
		});
	}

	// A shared Lettuce route, the kind a run asks for by default.
	private static RouteCache.Lease lease(RouteCache connections, FlushPolicy policy, @Nullable Duration rtt) {
		return connections.lease(Connector.LETTUCE, Sharing.SHARED, policy, null, rtt);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@Import(LabConfiguration.class)
	static class Enable {

	}

}
