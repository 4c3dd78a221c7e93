package dev.pipelininglab.redis;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.pipelininglab.LabProperties;
import dev.pipelininglab.latency.LatencyRelay;
import io.lettuce.core.internal.HostAndPort;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Hands out a {@link Route} per flush policy and added round-trip time. A request that
 * asks for another flush policy gets a connection factory of its own (sharing Lettuce's
 * client resources) instead of flipping the shared factory's policy under other requests.
 * Routes are kept for reuse and bounded in number. With
 * {@code lab.pipeline.writes=per-flush} (the default) every route has a factory of its
 * own whose connections hand each flush to Netty as one message; the auto-configured
 * factory keeps Lettuce's own endpoint for everything that is not measured.
 */
@Component
public class Connections implements DisposableBean {

	/**
	 * Each route holds a client and a small pool; a handful covers every comparison the
	 * lab makes.
	 */
	static final int MAX_ROUTES = 16;

	private final LettuceConnectionFactory primary;

	private final StringRedisTemplate primaryTemplate;

	private final FlushPolicy defaultPolicy;

	private final Writes writes;

	private final Map<Key, Route> routes = new ConcurrentHashMap<>();

	/** One relay per added RTT and Redis node. */
	private final Map<RelayKey, LatencyRelay> relays = new ConcurrentHashMap<>();

	Connections(LettuceConnectionFactory primary, StringRedisTemplate primaryTemplate, LabProperties properties,
			Topology topology) {
		this.primary = primary;
		this.primaryTemplate = primaryTemplate;
		this.defaultPolicy = properties.pipeline().flushPolicy();
		this.writes = properties.pipeline().writes();
	}

	public FlushPolicy defaultPolicy() {
		return this.defaultPolicy;
	}

	public Route primary() {
		return route(this.defaultPolicy, null);
	}

	/**
	 * @param addedRtt extra round-trip time through a latency relay, or null to connect
	 * directly
	 * @throws TooManyRoutesException when every route slot is taken
	 */
	public Route route(FlushPolicy policy, @Nullable Duration addedRtt) {
		Duration rtt = (addedRtt == null || addedRtt.isZero()) ? null : addedRtt;
		Key key = new Key(policy, rtt);
		Route existing = this.routes.get(key);
		if (existing != null) {
			return existing;
		}
		synchronized (this.routes) {
			existing = this.routes.get(key);
			if (existing != null) {
				return existing;
			}
			if (this.routes.size() >= MAX_ROUTES) {
				throw new TooManyRoutesException(MAX_ROUTES);
			}
			Route route = create(policy, rtt);
			this.routes.put(key, route);
			return route;
		}
	}

	private Route create(FlushPolicy policy, @Nullable Duration rtt) {
		if (rtt == null && policy.equals(this.defaultPolicy) && this.writes == Writes.PER_COMMAND) {
			return new Route(policy, this.writes, null, this.primary, this.primaryTemplate);
		}
		// The factory keeps the configuration it was built from (standalone, socket,
		// sentinel, cluster or static master/replica) in a private field; its getters
		// fall back to localhost:6379 for the kinds they do not cover, so the field is
		// read back, the way Spring Data Redis itself reads Lettuce's client URI.
		RedisConfiguration actual = (RedisConfiguration) new DirectFieldAccessor(this.primary)
			.getPropertyValue("configuration");
		RedisConfiguration configuration = (actual != null) ? actual : this.primary.getStandaloneConfiguration();
		LettuceClientConfiguration clientConfiguration = (rtt != null)
				? RelayedClientConfiguration.of(this.primary.getClientConfiguration(), relayed(rtt))
				: this.primary.getClientConfiguration();
		LettuceConnectionFactory factory = (this.writes == Writes.PER_FLUSH)
				? new BatchWritingConnectionFactory(configuration, clientConfiguration)
				: new LettuceConnectionFactory(configuration, clientConfiguration);
		factory.setPipeliningFlushPolicy(policy.toLettuce());
		factory.afterPropertiesSet();
		factory.start();
		StringRedisTemplate template = new StringRedisTemplate(factory);
		return new Route(policy, this.writes, rtt, factory, template);
	}

	/**
	 * Every address the client connects to (the configured one, sentinels, the master a
	 * sentinel names, the cluster nodes and replicas the servers announce) is mapped to a
	 * relay of its own in front of it, started on first use. Mapping at Lettuce's address
	 * resolver, not in the configuration, is what keeps discovered nodes behind the delay
	 * too.
	 */
	private Function<HostAndPort, HostAndPort> relayed(Duration rtt) {
		return (target) -> {
			LatencyRelay relay = this.relays.computeIfAbsent(new RelayKey(rtt, target.getHostText(), target.getPort()),
					(key) -> LatencyRelay.start(new InetSocketAddress(key.host(), key.port()), rtt.dividedBy(2)));
			return HostAndPort.of("127.0.0.1", relay.port());
		};
	}

	@Override
	public void destroy() {
		this.routes.values()
			.stream()
			.filter((route) -> route.factory() != this.primary)
			.forEach((route) -> route.factory().destroy());
		this.relays.values().forEach(LatencyRelay::close);
	}

	private record Key(FlushPolicy policy, @Nullable Duration rtt) {
	}

	private record RelayKey(Duration rtt, String host, int port) {
	}

	/**
	 * Every route slot is taken; the app must be restarted to try further flush policy
	 * and RTT combinations.
	 */
	public static class TooManyRoutesException extends RuntimeException {

		TooManyRoutesException(int max) {
			super("This instance already keeps " + max + " distinct flush policy / added RTT combinations;"
					+ " reuse one of them or restart the app");
		}

	}

}
