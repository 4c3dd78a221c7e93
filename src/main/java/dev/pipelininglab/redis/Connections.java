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
import io.lettuce.core.api.StatefulConnection;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Jedis;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Hands out a {@link Route} per connector, connection sharing, flush policy and added
 * round-trip time. A request that asks for another flush policy gets a connection factory
 * of its own (sharing Lettuce's client resources) instead of flipping the shared
 * factory's policy under other requests. Routes are kept for reuse and bounded in number,
 * and their connections carry a client name of their own, so the server can tell which
 * connections a run used. With {@code lab.pipeline.writes=per-flush} (the default) every
 * Lettuce route has a factory of its own whose connections hand each flush to Netty as
 * one message; the auto-configured factory keeps Lettuce's own endpoint for everything
 * that is not measured. The Jedis factory is made on the first request that asks for
 * Jedis, never at start, and closed with the app.
 */
@Component
public class Connections implements DisposableBean {

	/**
	 * Each route holds a client and a small pool; a handful covers every comparison the
	 * lab makes.
	 */
	static final int MAX_ROUTES = 24;

	private final LettuceConnectionFactory primary;

	private final StringRedisTemplate primaryTemplate;

	private final FlushPolicy defaultPolicy;

	private final Writes writes;

	private final Topology topology;

	/**
	 * Connections each route's pool may hold: enough for {@code lab.limits.max-clients}
	 * clients each holding one at once.
	 */
	private final int poolSize;

	private final Map<Key, Route> routes = new ConcurrentHashMap<>();

	/** One relay per added RTT and Redis node. */
	private final Map<RelayKey, LatencyRelay> relays = new ConcurrentHashMap<>();

	Connections(LettuceConnectionFactory primary, StringRedisTemplate primaryTemplate, LabProperties properties,
			Topology topology) {
		this.primary = primary;
		this.primaryTemplate = primaryTemplate;
		this.defaultPolicy = properties.pipeline().flushPolicy();
		this.writes = properties.pipeline().writes();
		this.topology = topology;
		int configured = (primary.getClientConfiguration() instanceof LettucePoolingClientConfiguration pooling)
				? pooling.getPoolConfig().getMaxTotal() : 0;
		this.poolSize = Math.max(configured, properties.limits().maxClients());
	}

	public FlushPolicy defaultPolicy() {
		return this.defaultPolicy;
	}

	public Route primary() {
		return route(this.defaultPolicy, null);
	}

	/** A Lettuce route whose template calls share one native connection. */
	public Route route(FlushPolicy policy, @Nullable Duration addedRtt) {
		return route(Connector.LETTUCE, Sharing.SHARED, policy, addedRtt);
	}

	/**
	 * @param policy Lettuce's flush policy; ignored for Jedis, which has none
	 * @param addedRtt extra round-trip time through a latency relay, or null to connect
	 * directly
	 * @throws ConnectorUnsupportedException when the connector cannot reach this Redis
	 * the way the app is configured
	 * @throws TooManyRoutesException when every route slot is taken
	 */
	public Route route(Connector connector, Sharing sharing, FlushPolicy policy, @Nullable Duration addedRtt) {
		Duration rtt = (addedRtt == null || addedRtt.isZero()) ? null : addedRtt;
		if (connector == Connector.JEDIS && sharing == Sharing.SHARED) {
			throw new ConnectorUnsupportedException(
					"Jedis connections serve one thread at a time, so Jedis has no shared connection: use pooled");
		}
		Key key = new Key(connector, sharing, (connector == Connector.LETTUCE) ? policy : null, rtt);
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
			Route route = (connector == Connector.JEDIS) ? createJedis(rtt) : create(sharing, policy, rtt);
			this.routes.put(key, route);
			return route;
		}
	}

	private Route create(Sharing sharing, FlushPolicy policy, @Nullable Duration rtt) {
		if (sharing == Sharing.SHARED && rtt == null && policy.equals(this.defaultPolicy)
				&& this.writes == Writes.PER_COMMAND) {
			return new Route(Connector.LETTUCE, sharing, policy, this.writes, null, this.primary, this.primaryTemplate,
					null);
		}
		String name = clientName(Connector.LETTUCE, sharing);
		LettuceClientConfiguration named = lettuceClientConfiguration(name);
		LettuceClientConfiguration clientConfiguration = (rtt != null)
				? RelayedClientConfiguration.of(named, relayed(rtt)) : named;
		RedisConfiguration configuration = configuration();
		LettuceConnectionFactory factory = (this.writes == Writes.PER_FLUSH)
				? new BatchWritingConnectionFactory(configuration, clientConfiguration)
				: new LettuceConnectionFactory(configuration, clientConfiguration);
		factory.setPipeliningFlushPolicy(policy.toLettuce());
		factory.setShareNativeConnection(sharing == Sharing.SHARED);
		factory.afterPropertiesSet();
		factory.start();
		StringRedisTemplate template = new StringRedisTemplate(factory);
		return new Route(Connector.LETTUCE, sharing, policy, this.writes, rtt, factory, template, name);
	}

	/**
	 * Spring Data Redis's {@code JedisConnectionFactory} on the same Redis, credentials
	 * and timeouts, with a pool as large as the Lettuce routes'. Jedis has no read-from:
	 * on sentinel it reads from the master.
	 */
	private Route createJedis(@Nullable Duration rtt) {
		RedisConfiguration configuration = configuration();
		if (rtt != null) {
			configuration = relayedForJedis(configuration, rtt);
		}
		LettuceClientConfiguration lettuce = this.primary.getClientConfiguration();
		String name = clientName(Connector.JEDIS, Sharing.POOLED);
		GenericObjectPoolConfig<Jedis> pool = new GenericObjectPoolConfig<>();
		pool.setMaxTotal(this.poolSize);
		pool.setMaxIdle(this.poolSize);
		if (lettuce instanceof LettucePoolingClientConfiguration pooling) {
			pool.setMaxWait(pooling.getPoolConfig().getMaxWaitDuration());
		}
		Duration connectTimeout = lettuce.getClientOptions()
			.map((options) -> options.getSocketOptions().getConnectTimeout())
			.orElse(Duration.ofSeconds(2));
		JedisClientConfiguration.JedisClientConfigurationBuilder builder = JedisClientConfiguration.builder();
		if (lettuce.isUseSsl()) {
			builder.useSsl();
		}
		JedisClientConfiguration clientConfiguration = builder.clientName(name)
			.connectTimeout(connectTimeout)
			.readTimeout(lettuce.getCommandTimeout())
			.usePooling()
			.poolConfig(pool)
			.build();
		JedisConnectionFactory factory;
		if (configuration instanceof RedisStandaloneConfiguration standalone) {
			factory = new JedisConnectionFactory(standalone, clientConfiguration);
		}
		else if (configuration instanceof RedisSentinelConfiguration sentinel) {
			factory = new JedisConnectionFactory(sentinel, clientConfiguration);
		}
		else if (configuration instanceof RedisClusterConfiguration cluster) {
			factory = new JedisConnectionFactory(cluster, clientConfiguration);
		}
		else {
			throw new ConnectorUnsupportedException("Spring Data Redis's Jedis connector takes standalone, sentinel"
					+ " or cluster configurations; this app is configured with "
					+ configuration.getClass().getSimpleName());
		}
		factory.afterPropertiesSet();
		factory.start();
		return new Route(Connector.JEDIS, Sharing.POOLED, null, this.writes, rtt, factory,
				new StringRedisTemplate(factory), name);
	}

	/**
	 * The configuration the auto-configured factory was built from (standalone, socket,
	 * sentinel, cluster or static master/replica). The factory keeps it in a private
	 * field and its getters fall back to localhost:6379 for the kinds they do not cover,
	 * so the field is read back, the way Spring Data Redis itself reads Lettuce's client
	 * URI.
	 */
	private RedisConfiguration configuration() {
		RedisConfiguration actual = (RedisConfiguration) new DirectFieldAccessor(this.primary)
			.getPropertyValue("configuration");
		return (actual != null) ? actual : this.primary.getStandaloneConfiguration();
	}

	/**
	 * Jedis has no address resolver to map discovered nodes to relays, so its RTT lab
	 * runs on a standalone Redis only: the configured address is replaced by its relay.
	 */
	private RedisConfiguration relayedForJedis(RedisConfiguration configuration, Duration rtt) {
		if (!(configuration instanceof RedisStandaloneConfiguration direct)) {
			throw new ConnectorUnsupportedException("connector=jedis with rtt runs on a standalone Redis only:"
					+ " Jedis follows the addresses sentinels and cluster nodes announce, which would bypass the"
					+ " relay; use Lettuce for the RTT lab on " + this.topology.kind());
		}
		HostAndPort relay = relayed(rtt).apply(HostAndPort.of(direct.getHostName(), direct.getPort()));
		RedisStandaloneConfiguration viaRelay = new RedisStandaloneConfiguration(relay.getHostText(), relay.getPort());
		viaRelay.setDatabase(direct.getDatabase());
		viaRelay.setUsername(direct.getUsername());
		viaRelay.setPassword(direct.getPassword());
		return viaRelay;
	}

	/**
	 * The auto-configured client configuration with this route's name and a pool sized
	 * for {@code lab.limits.max-clients}.
	 */
	private LettuceClientConfiguration lettuceClientConfiguration(String name) {
		LettuceClientConfiguration source = this.primary.getClientConfiguration();
		GenericObjectPoolConfig<StatefulConnection<?, ?>> pool = (source instanceof LettucePoolingClientConfiguration pooling)
				? pooling.getPoolConfig().clone() : new GenericObjectPoolConfig<>();
		pool.setMaxTotal(this.poolSize);
		pool.setMaxIdle(this.poolSize);
		LettucePoolingClientConfiguration.LettucePoolingClientConfigurationBuilder builder = LettucePoolingClientConfiguration
			.builder();
		if (source.isUseSsl()) {
			LettuceClientConfiguration.LettuceSslClientConfigurationBuilder ssl = builder.useSsl()
				.verifyPeer(source.getVerifyMode());
			if (source.isStartTls()) {
				ssl.startTls();
			}
		}
		source.getClientResources().ifPresent(builder::clientResources);
		source.getClientOptions().ifPresent(builder::clientOptions);
		source.getReadFrom().ifPresent(builder::readFrom);
		source.getRedisCredentialsProviderFactory().ifPresent(builder::redisCredentialsProviderFactory);
		return builder.commandTimeout(source.getCommandTimeout())
			.shutdownTimeout(source.getShutdownTimeout())
			.shutdownQuietPeriod(source.getShutdownQuietPeriod())
			.clientName(name)
			.poolConfig(pool)
			.build();
	}

	private String clientName(Connector connector, Sharing sharing) {
		String base = this.primary.getClientConfiguration().getClientName().orElse("pipelining-lab");
		return base + "-" + connector + "-" + sharing + "-" + (this.routes.size() + 1);
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
		for (Route route : this.routes.values()) {
			if (route.factory() instanceof LettuceConnectionFactory lettuce && lettuce != this.primary) {
				lettuce.destroy();
			}
			else if (route.factory() instanceof JedisConnectionFactory jedis) {
				jedis.destroy();
			}
		}
		this.relays.values().forEach(LatencyRelay::close);
	}

	private record Key(Connector connector, Sharing sharing, @Nullable FlushPolicy policy, @Nullable Duration rtt) {
	}

	/**
	 * The connector or connection mode does not apply to this Redis or this app's
	 * configuration.
	 */
	public static class ConnectorUnsupportedException extends RuntimeException {

		ConnectorUnsupportedException(String message) {
			super(message);
		}

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
