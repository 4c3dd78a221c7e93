package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.RedisServer;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Whether the lab can write right now, and if not, what is missing; as the {@code redis}
 * health component UP only while the lab can write: Boot's PING stayed UP through a
 * sentinel master outage and a cluster answering CLUSTERDOWN.
 */
@Component("redisHealthContributor")
public class RedisDiagnosis implements HealthIndicator {

	private final LettuceConnectionFactory factory;

	private final Topology topology;

	private final RouteCache routes;

	private final byte[] probeKey;

	private final Duration healthTimeout;

	private final AtomicReference<@Nullable CompletableFuture<Health>> running = new AtomicReference<>();

	RedisDiagnosis(LettuceConnectionFactory factory, RouteCache routes, Topology topology, KeySpace keys,
			HealthProperties health) {
		this.factory = factory;
		this.routes = routes;
		this.topology = topology;
		this.probeKey = (keys.prefix() + ":health-probe").getBytes(StandardCharsets.UTF_8);
		this.healthTimeout = health.redisTimeout();
	}

	public enum Cause {

		REDIS_UNREACHABLE, MASTER_UNREACHABLE, SENTINELS_UNREACHABLE, CLUSTER_DOWN, NODE_UNREACHABLE, AUTH_FAILED

	}

	public record Finding(@Nullable Cause cause, String summary, Map<String, Object> details) {

		public boolean writable() {
			return this.cause == null;
		}

	}

	public Finding diagnose() {
		return switch (this.topology.kind()) {
			case STANDALONE -> standalone();
			case SENTINEL -> sentinel();
			case CLUSTER -> cluster();
		};
	}

	// Bounded by lab.health.redis-timeout, as Lettuce's per-command timeout is off. One
	// check at a time on its own thread: while Redis stays stuck, probes answer DOWN at
	// once instead of piling up threads.
	@Override
	public Health health() {
		CompletableFuture<Health> check = this.running.get();
		if (check == null || check.isDone()) {
			check = CompletableFuture.supplyAsync(this::healthOf);
			this.running.set(check);
		}
		try {
			return check.get(this.healthTimeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			return timedOut();
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			return Health.down().withException((cause != null) ? cause : ex).build();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return timedOut();
		}
	}

	private Health healthOf() {
		Finding finding = diagnose();
		Cause cause = finding.cause();
		Health.Builder health = (cause == null) ? Health.up() : Health.down().withDetail("cause", cause);
		return health.withDetail("summary", finding.summary()).withDetails(finding.details()).build();
	}

	private Health timedOut() {
		return Health.down().withDetail("error", "no answer within " + this.healthTimeout.toMillis() + " ms").build();
	}

	public @Nullable String sentinelMaster() {
		if (this.topology.kind() != Topology.Kind.SENTINEL) {
			return null;
		}
		RedisServer master = namedMaster();
		return (master != null) ? master.getHost() + ":" + master.getPort() : null;
	}

	private Finding standalone() {
		String redis = this.topology.nodes().get(0);
		Map<String, Object> details = Map.of("redis", redis);
		WriteProbe probe = writes();
		if (probe.wrote()) {
			return new Finding(null, "Redis at " + redis + " takes writes.", details);
		}
		if (probe.authRefusal() != null) {
			return probe.authFailed(redis, details);
		}
		return new Finding(Cause.REDIS_UNREACHABLE,
				"Redis at " + redis + " does not take writes (unreachable or read-only; the app's connection says: "
						+ probe.failure() + ").",
				details);
	}

	private Finding sentinel() {
		Map<String, Object> details = new LinkedHashMap<>();
		String name = Topology.masterName(this.factory);
		details.put("masterName", name);
		details.put("sentinels", this.topology.nodes());
		RedisServer named = namedMaster();
		String address = null;
		if (named != null) {
			address = named.getHost() + ":" + named.getPort();
			details.put("master", address);
			details.put("masterFlags", named.getFlags());
		}
		WriteProbe probe = writes();
		if (probe.wrote()) {
			return new Finding(null, "Master " + address + " of '" + name + "' takes writes.", details);
		}
		if (probe.authRefusal() != null) {
			return probe.authFailed((address != null) ? address : "the master of '" + name + "'", details);
		}
		if (named == null) {
			return new Finding(Cause.SENTINELS_UNREACHABLE,
					"None of the Redis sentinels at " + String.join(", ", this.topology.nodes())
							+ " answers, so the master of '" + name
							+ "' cannot be found (and the master the app was using does not take writes either).",
					details);
		}
		String flags = named.getFlags();
		// Before the sentinels see the master down there is no failover to follow yet.
		boolean seenDown = flags != null && (flags.contains("s_down") || flags.contains("o_down"));
		return new Finding(Cause.MASTER_UNREACHABLE,
				"Cannot write to the Redis master of '" + name + "' (the app's connection says: " + probe.failure()
						+ "): the sentinels name " + address
						+ (seenDown ? " and see it down (" + flags + "); a failover follows once they agree."
								: " (flags " + flags + ") and do not see it down yet; should it stay unreachable past"
										+ " down-after-milliseconds they promote a replica, and the app follows it."),
				details);
	}

	private @Nullable RedisServer namedMaster() {
		String name = Topology.masterName(this.factory);
		try (RedisSentinelConnection sentinels = this.factory.getSentinelConnection()) {
			return sentinels.masters()
				.stream()
				.filter((master) -> name.equals(master.getName()))
				.findFirst()
				.orElse(null);
		}
		catch (Exception ex) {
			return null;
		}
	}

	// On sentinel through the route runs use (its pooled siblings refresh at the same
	// moment); elsewhere through the app's own factory, whose connection is warm.
	private WriteProbe writes() {
		LettuceConnectionFactory writer = (this.topology.kind() == Topology.Kind.SENTINEL)
				? this.routes.primary().lettuce() : this.factory;
		RuntimeException failure = RedisReplies.probe(() -> {
			try (RedisConnection connection = writer.getConnection()) {
				connection.keyCommands().unlink(this.probeKey);
			}
		});
		return (failure != null) ? WriteProbe.failed(failure) : WriteProbe.OK;
	}

	// Both routes' slot maps (shared and pooled) follow a promotion on their own refresh,
	// so both must cover every slot (ClusterVerdict). The pooled route only once a run
	// built it: building it here would make a probe of a stalled cluster wait for its
	// slot map.
	private Finding cluster() {
		Optional<RouteCache.Lease> pooled = this.routes.leaseIfKept(Connector.LETTUCE, Sharing.POOLED,
				this.routes.defaultPolicy());
		try (RedisConnection shared = this.routes.primary().factory().getConnection()) {
			StatefulRedisClusterConnection<?, ?> cluster = ((RedisAdvancedClusterAsyncCommands<?, ?>) shared
				.getNativeConnection()).getStatefulConnection();
			List<Partitions> views = new ArrayList<>(List.of(cluster.getPartitions()));
			pooled.ifPresent((lease) -> views
				.add(((RedisClusterClient) lease.route().lettuce().getRequiredNativeClient()).getPartitions()));
			return ClusterVerdict.of(cluster, views);
		}
		catch (RuntimeException ex) {
			WriteProbe probe = WriteProbe.failed(ex);
			if (probe.authRefusal() != null) {
				return probe.authFailed(String.join(", ", this.topology.nodes()),
						Map.of("nodes", this.topology.nodes()));
			}
			return new Finding(Cause.NODE_UNREACHABLE,
					"Cannot reach any of the Redis cluster nodes at " + String.join(", ", this.topology.nodes()) + ".",
					Map.of("nodes", this.topology.nodes()));
		}
		finally {
			pooled.ifPresent(RouteCache.Lease::close);
		}
	}

	private record WriteProbe(@Nullable String failure, @Nullable String authRefusal) {

		static final WriteProbe OK = new WriteProbe(null, null);

		static WriteProbe failed(Throwable failure) {
			Throwable innermost = NestedExceptionUtils.getMostSpecificCause(failure);
			String message = (innermost.getMessage() != null) ? innermost.getMessage()
					: innermost.getClass().getSimpleName();
			return new WriteProbe(message, RedisReplies.authRefusal(failure));
		}

		boolean wrote() {
			return this.failure == null;
		}

		Finding authFailed(String address, Map<String, Object> details) {
			return new Finding(Cause.AUTH_FAILED, "Redis at " + address + " refuses the app's credentials ("
					+ this.authRefusal + "); check spring.data.redis.username and password.", details);
		}

	}

}
