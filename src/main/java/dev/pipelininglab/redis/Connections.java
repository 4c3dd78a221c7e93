package dev.pipelininglab.redis;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.pipelininglab.LabProperties;
import dev.pipelininglab.latency.LatencyRelay;
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

	private final Map<Duration, LatencyRelay> relays = new ConcurrentHashMap<>();

	Connections(LettuceConnectionFactory primary, StringRedisTemplate primaryTemplate, LabProperties properties,
			Topology topology) {
		this.primary = primary;
		this.primaryTemplate = primaryTemplate;
		this.defaultPolicy = properties.pipeline().flushPolicy();
		// Cluster clients build their node endpoints themselves, so they keep Lettuce's
		// per-command hand-over.
		this.writes = (topology.kind() == Topology.Kind.CLUSTER) ? Writes.PER_COMMAND : properties.pipeline().writes();
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
	 * @throws RelayUnsupportedException when a relay is asked for on sentinel or cluster,
	 * whose clients follow addresses the servers announce and would bypass it
	 * @throws ConnectorUnsupportedException when the connector cannot reach this Redis
	 * the way the app is configured
	 * @throws TooManyRoutesException when every route slot is taken
	 */
	public Route route(Connector connector, Sharing sharing, FlushPolicy policy, @Nullable Duration addedRtt) {
		Duration rtt = (addedRtt == null || addedRtt.isZero()) ? null : addedRtt;
		if (rtt != null && this.topology.kind() != Topology.Kind.STANDALONE) {
			throw new RelayUnsupportedException(this.topology.kind());
		}
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
		RedisConfiguration configuration = configuration(rtt);
		String name = clientName(Connector.LETTUCE, sharing);
		LettuceClientConfiguration clientConfiguration = lettuceClientConfiguration(name);
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
		RedisConfiguration configuration = configuration(rtt);
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

	private RedisConfiguration configuration(@Nullable Duration rtt) {
		// The factory keeps the configuration it was built from (standalone, socket,
		// sentinel, cluster or static
		// master/replica) in a private field; its getters fall back to localhost:6379 for
		// the kinds they do not
		// cover, so the field is read back, the way Spring Data Redis itself reads
		// Lettuce's client URI.
		RedisConfiguration actual = (RedisConfiguration) new DirectFieldAccessor(this.primary)
			.getPropertyValue("configuration");
		if (rtt == null) {
			return (actual != null) ? actual : this.primary.getStandaloneConfiguration();
		}
		if (!(actual instanceof RedisStandaloneConfiguration direct)) {
			throw new RelayUnsupportedException(this.topology.kind());
		}
		LatencyRelay relay = this.relays.computeIfAbsent(rtt, (key) -> LatencyRelay
			.start(new InetSocketAddress(direct.getHostName(), direct.getPort()), key.dividedBy(2)));
		RedisStandaloneConfiguration viaRelay = new RedisStandaloneConfiguration("127.0.0.1", relay.port());
		viaRelay.setDatabase(direct.getDatabase());
		viaRelay.setUsername(direct.getUsername());
		viaRelay.setPassword(direct.getPassword());
		return viaRelay;
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

	/**
	 * Sentinel and cluster clients follow the addresses the servers announce, which would
	 * bypass a relay.
	 */
	public static class RelayUnsupportedException extends RuntimeException {

		RelayUnsupportedException(Topology.Kind kind) {
			super("rtt needs a standalone Redis: " + kind
					+ " clients connect to the addresses the servers announce, which would bypass the latency relay");
		}

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
