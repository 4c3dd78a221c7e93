package dev.pipelininglab.redis;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.pipelininglab.latency.LatencyRelay;
import dev.pipelininglab.redis.lettuce.BatchWritingConnectionFactory;
import dev.pipelininglab.redis.lettuce.PrivateState;
import dev.pipelininglab.redis.RouteCache.ConnectorUnsupportedException;
import dev.pipelininglab.redis.RouteCache.RouteKey;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.internal.HostAndPort;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.MappingSocketAddressResolver;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Builds and closes the connection factories behind routes. */
class RouteBuilder {

	private static final AtomicLong ROUTE_NUMBERS = new AtomicLong();

	private final LettuceConnectionFactory primary;

	private final StringRedisTemplate primaryTemplate;

	private final FlushPolicy defaultPolicy;

	private final Topology topology;

	private final int poolSize;

	private final Map<RelayKey, LatencyRelay> relays = new ConcurrentHashMap<>();

	private final List<Consumer<LettuceConnectionFactory>> closeListeners = new CopyOnWriteArrayList<>();

	RouteBuilder(LettuceConnectionFactory primary, StringRedisTemplate primaryTemplate, FlushPolicy defaultPolicy,
			int maxClients, Topology topology) {
		this.primary = primary;
		this.primaryTemplate = primaryTemplate;
		this.defaultPolicy = defaultPolicy;
		this.topology = topology;
		int configured = (primary.getClientConfiguration() instanceof LettucePoolingClientConfiguration pooling)
				? pooling.getPoolConfig().getMaxTotal() : 0;
		this.poolSize = Math.max(configured, maxClients);
	}

	void onClose(Consumer<LettuceConnectionFactory> listener) {
		this.closeListeners.add(listener);
	}

	Route build(RouteKey key) {
		return (key.connector() == Connector.JEDIS) ? createJedis(key.rtt()) : createLettuce(key);
	}

	private Route createLettuce(RouteKey key) {
		FlushPolicy policy = Objects.requireNonNull(key.policy(), "a Lettuce route has a flush policy");
		Writes writes = Objects.requireNonNull(key.writes(), "a Lettuce route has a way of writing");
		if (key.sharing() == Sharing.SHARED && key.rtt() == null && policy.equals(this.defaultPolicy)
				&& writes == Writes.PER_COMMAND) {
			return new Route(Connector.LETTUCE, Sharing.SHARED, policy, writes, null, this.primary,
					this.primaryTemplate, null);
		}
		String name = clientName(Connector.LETTUCE, key.sharing());
		LettuceClientConfiguration clientConfiguration = lettuceClientConfiguration(name, key.rtt());
		RedisConfiguration configuration = configuration();
		LettuceConnectionFactory factory = (writes == Writes.PER_FLUSH)
				? new BatchWritingConnectionFactory(configuration, clientConfiguration)
				: new LettuceConnectionFactory(configuration, clientConfiguration);
		factory.setPipeliningFlushPolicy(policy.toLettuce());
		factory.setShareNativeConnection(key.sharing() == Sharing.SHARED);
		factory.afterPropertiesSet();
		factory.start();
		StringRedisTemplate template = new StringRedisTemplate(factory);
		return new Route(Connector.LETTUCE, key.sharing(), policy, writes, key.rtt(), factory, template, name);
	}

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
		return new Route(Connector.JEDIS, Sharing.POOLED, null, Writes.PER_COMMAND, rtt, factory,
				new StringRedisTemplate(factory), name);
	}

	private RedisConfiguration configuration() {
		RedisConfiguration actual = PrivateState.configuration(this.primary);
		return (actual != null) ? actual : this.primary.getStandaloneConfiguration();
	}

	// Jedis has no address resolver to map discovered nodes to relays.
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

	private LettuceClientConfiguration lettuceClientConfiguration(String name, @Nullable Duration rtt) {
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
		source.getClientResources()
			.map((shared) -> (rtt != null) ? relayedResources(shared, relayed(rtt)) : shared)
			.ifPresent(builder::clientResources);
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

	// The app's event loops, executors and timer handed in again are marked shared, so
	// the copy's shutdown leaves them running; a plain mutate() kept their ownership.
	private static ClientResources relayedResources(ClientResources shared,
			Function<HostAndPort, HostAndPort> mapping) {
		return shared.mutate()
			.eventLoopGroupProvider(shared.eventLoopGroupProvider())
			.eventExecutorGroup(shared.eventExecutorGroup())
			.timer(shared.timer())
			.socketAddressResolver(MappingSocketAddressResolver.create(mapping))
			.build();
	}

	private String clientName(Connector connector, Sharing sharing) {
		String base = this.primary.getClientConfiguration().getClientName().orElse("pipelining-lab");
		return base + "-" + connector + "-" + sharing + "-" + ROUTE_NUMBERS.incrementAndGet();
	}

	// Mapped at Lettuce's address resolver, not in the configuration, so nodes the
	// servers announce are delayed too.
	private Function<HostAndPort, HostAndPort> relayed(Duration rtt) {
		return (target) -> {
			LatencyRelay relay = this.relays.computeIfAbsent(new RelayKey(rtt, target.getHostText(), target.getPort()),
					(key) -> LatencyRelay.start(new InetSocketAddress(key.host(), key.port()), rtt.dividedBy(2)));
			return HostAndPort.of("127.0.0.1", relay.port());
		};
	}

	void close(Route route) {
		if (route.factory() == this.primary) {
			return;
		}
		if (route.factory() instanceof LettuceConnectionFactory lettuce) {
			this.closeListeners.forEach((listener) -> listener.accept(lettuce));
			lettuce.destroy();
			if (route.addedRtt() != null) {
				// A relayed route's resources are its own copy; their shutdown leaves the
				// shared event loops running.
				lettuce.getClientConfiguration().getClientResources().ifPresent(ClientResources::shutdown);
			}
		}
		else if (route.factory() instanceof JedisConnectionFactory jedis) {
			jedis.destroy();
		}
	}

	void closeRelays(Duration rtt) {
		this.relays.entrySet().removeIf((relay) -> {
			if (relay.getKey().rtt().equals(rtt)) {
				relay.getValue().close();
				return true;
			}
			return false;
		});
	}

	void closeAllRelays() {
		this.relays.values().forEach(LatencyRelay::close);
		this.relays.clear();
	}

	private record RelayKey(Duration rtt, String host, int port) {
	}

}
