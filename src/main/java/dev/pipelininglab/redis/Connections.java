package dev.pipelininglab.redis;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.latency.LatencyRelay;
import dev.pipelininglab.redis.lettuce.BatchWritingConnectionFactory;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.internal.HostAndPort;
import io.lettuce.core.resource.ClientResources;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;

import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.DisposableBean;
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
import org.springframework.stereotype.Component;

/**
 * Hands out a {@link Route} per connector, connection sharing, flush policy, way of
 * writing and added round-trip time. A request that asks for another flush policy gets a
 * connection factory of its own (sharing Lettuce's client resources) instead of flipping
 * the shared factory's policy under other requests. Route connections carry a client name
 * of their own, so the server can tell which connections a run used. The Jedis factory is
 * made on the first request that asks for Jedis, never at start, and closed with the app.
 * <p>
 * The default route (Lettuce, shared connection, the configured policy and way of
 * writing, connected directly) is kept for the app's lifetime; with Lettuce's own
 * endpoint it is the auto-configured factory itself. Other routes are kept for reuse, at
 * most {@link #MAX_ROUTES} of them: asking for one more evicts the least recently used,
 * which is closed (factory, pool, latency relays) as soon as no run uses it any longer,
 * and a route no run used for {@code lab.pipeline.route-idle-timeout} is closed too. So
 * no sequence of requests can use up the instance, and an unused route does not keep
 * reconnecting.
 */
@Component
public class Connections implements DisposableBean {

	/**
	 * Routes kept beyond the default one; each holds a client and a pool. A default
	 * comparison with Jedis variants uses about a dozen.
	 */
	static final int MAX_ROUTES = 16;

	/** Route names stay unique after evictions. */
	private static final AtomicLong ROUTE_NUMBERS = new AtomicLong();

	private final LettuceConnectionFactory primary;

	private final StringRedisTemplate primaryTemplate;

	private final FlushPolicy defaultPolicy;

	private final Writes defaultWrites;

	private final Topology topology;

	/**
	 * Connections each route's pool may hold: enough for {@code lab.limits.max-clients}
	 * clients each holding one at once.
	 */
	private final int poolSize;

	/** In access order, eldest first; guarded by itself. */
	private final Map<Key, Entry> routes = new LinkedHashMap<>(MAX_ROUTES * 2, 0.75f, true);

	/** One relay per added RTT and Redis node, closed with the last route of that RTT. */
	private final Map<RelayKey, LatencyRelay> relays = new ConcurrentHashMap<>();

	private final List<Consumer<LettuceConnectionFactory>> closeListeners = new CopyOnWriteArrayList<>();

	private volatile @Nullable Entry defaultRoute;

	private final Duration idleTimeout;

	/** Closes routes nobody used for {@link #idleTimeout}; a daemon, stopped with us. */
	private final ScheduledExecutorService idleSweeper;

	Connections(LettuceConnectionFactory primary, StringRedisTemplate primaryTemplate, PipelineProperties pipeline,
			LimitProperties limits, Topology topology) {
		this.primary = primary;
		this.primaryTemplate = primaryTemplate;
		this.defaultPolicy = pipeline.flushPolicy();
		this.defaultWrites = pipeline.writes();
		this.topology = topology;
		int configured = (primary.getClientConfiguration() instanceof LettucePoolingClientConfiguration pooling)
				? pooling.getPoolConfig().getMaxTotal() : 0;
		this.poolSize = Math.max(configured, limits.maxClients());
		this.idleTimeout = pipeline.routeIdleTimeout();
		this.idleSweeper = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "route-idle-sweeper");
			thread.setDaemon(true);
			return thread;
		});
		long period = Math.max(100, this.idleTimeout.toMillis() / 2);
		this.idleSweeper.scheduleWithFixedDelay(this::closeIdle, period, period, TimeUnit.MILLISECONDS);
	}

	/**
	 * Drops the routes no run has used for the idle timeout: an idle route's client keeps
	 * refreshing a cluster's topology, its relays and reconnects keep running, and during
	 * an outage each of them logs on every attempt. A later run builds it again.
	 */
	void closeIdle() {
		long now = System.nanoTime();
		List<Entry> idle = new ArrayList<>();
		synchronized (this.routes) {
			Iterator<Entry> entries = this.routes.values().iterator();
			while (entries.hasNext()) {
				Entry entry = entries.next();
				if (entry.users == 0 && now - entry.lastUsedNanos > this.idleTimeout.toNanos()) {
					entries.remove();
					entry.evicted = true;
					idle.add(entry);
				}
			}
		}
		idle.forEach(this::close);
	}

	public FlushPolicy defaultPolicy() {
		return this.defaultPolicy;
	}

	/** How Lettuce pipelines are handed to Netty unless a run asks otherwise. */
	public Writes defaultWrites() {
		return this.defaultWrites;
	}

	/** The default route, kept for the app's lifetime: for untimed set-up and checks. */
	public Route primary() {
		return defaultEntry().route;
	}

	/**
	 * Calls {@code listener} with the factory of every Lettuce route that is closed,
	 * before it closes, so whoever keeps connections of its own per factory can let them
	 * go.
	 */
	public void onClose(Consumer<LettuceConnectionFactory> listener) {
		this.closeListeners.add(listener);
	}

	/** A Lettuce route whose template calls share one native connection. */
	public Lease lease(FlushPolicy policy, @Nullable Writes writes, @Nullable Duration addedRtt) {
		return lease(Connector.LETTUCE, Sharing.SHARED, policy, writes, addedRtt);
	}

	/**
	 * A route for one run; close the lease when the run is over, so an evicted route can
	 * be closed.
	 * @param policy Lettuce's flush policy; ignored for Jedis, which has none
	 * @param writes how Lettuce pipelines are handed to Netty, or null for the configured
	 * way; ignored for Jedis
	 * @param addedRtt extra round-trip time through latency relays, or null to connect
	 * directly
	 * @throws ConnectorUnsupportedException when the connector cannot reach this Redis
	 * the way the app is configured
	 */
	public Lease lease(Connector connector, Sharing sharing, FlushPolicy policy, @Nullable Writes writes,
			@Nullable Duration addedRtt) {
		Duration rtt = (addedRtt == null || addedRtt.isZero()) ? null : addedRtt;
		if (connector == Connector.JEDIS && sharing == Sharing.SHARED) {
			throw new ConnectorUnsupportedException(
					"Jedis connections serve one thread at a time, so Jedis has no shared connection: use pooled");
		}
		boolean lettuce = connector == Connector.LETTUCE;
		Key key = new Key(connector, sharing, lettuce ? policy : null,
				lettuce ? ((writes != null) ? writes : this.defaultWrites) : null, rtt);
		if (key.equals(defaultKey())) {
			return new Lease(this, defaultEntry());
		}
		List<Entry> evicted = new ArrayList<>();
		Entry entry;
		synchronized (this.routes) {
			entry = this.routes.get(key);
			if (entry == null) {
				entry = create(key);
				this.routes.put(key, entry);
				Iterator<Entry> eldest = this.routes.values().iterator();
				while (this.routes.size() > MAX_ROUTES) {
					Entry old = eldest.next();
					eldest.remove();
					old.evicted = true;
					if (old.users == 0) {
						evicted.add(old);
					}
				}
			}
			entry.users++;
		}
		evicted.forEach(this::close);
		return new Lease(this, entry);
	}

	/**
	 * The route runs would lease with these settings (the configured way of writing,
	 * direct connections), leased only when it is already kept: a health probe must
	 * neither build nor evict routes.
	 */
	public Optional<Lease> leaseIfKept(Connector connector, Sharing sharing, FlushPolicy policy) {
		boolean lettuce = connector == Connector.LETTUCE;
		Key key = new Key(connector, sharing, lettuce ? policy : null, lettuce ? this.defaultWrites : null, null);
		synchronized (this.routes) {
			Entry entry = this.routes.get(key);
			if (entry == null || entry.evicted) {
				return Optional.empty();
			}
			entry.users++;
			return Optional.of(new Lease(this, entry));
		}
	}

	/** Routes kept for reuse besides the default one, for tests. */
	int kept() {
		synchronized (this.routes) {
			return this.routes.size();
		}
	}

	private void release(Entry entry) {
		if (entry == this.defaultRoute) {
			return;
		}
		boolean close;
		synchronized (this.routes) {
			entry.users--;
			entry.lastUsedNanos = System.nanoTime();
			close = entry.evicted && entry.users == 0;
		}
		if (close) {
			close(entry);
		}
	}

	private Key defaultKey() {
		return new Key(Connector.LETTUCE, Sharing.SHARED, this.defaultPolicy, this.defaultWrites, null);
	}

	private Entry defaultEntry() {
		Entry entry = this.defaultRoute;
		if (entry == null) {
			synchronized (this.routes) {
				entry = this.defaultRoute;
				if (entry == null) {
					entry = create(defaultKey());
					this.defaultRoute = entry;
				}
			}
		}
		return entry;
	}

	private Entry create(Key key) {
		Route route = (key.connector() == Connector.JEDIS) ? createJedis(key.rtt()) : createLettuce(key);
		return new Entry(key, route);
	}

	private Route createLettuce(Key key) {
		FlushPolicy policy = Objects.requireNonNull(key.policy(), "a Lettuce route has a flush policy");
		Writes writes = Objects.requireNonNull(key.writes(), "a Lettuce route has a way of writing");
		if (key.sharing() == Sharing.SHARED && key.rtt() == null && policy.equals(this.defaultPolicy)
				&& writes == Writes.PER_COMMAND) {
			return new Route(Connector.LETTUCE, Sharing.SHARED, policy, writes, null, this.primary,
					this.primaryTemplate, null);
		}
		String name = clientName(Connector.LETTUCE, key.sharing());
		LettuceClientConfiguration named = lettuceClientConfiguration(name);
		LettuceClientConfiguration clientConfiguration = (key.rtt() != null)
				? RelayedClientConfiguration.of(named, relayed(key.rtt())) : named;
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
		return new Route(Connector.JEDIS, Sharing.POOLED, null, Writes.PER_COMMAND, rtt, factory,
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
		return base + "-" + connector + "-" + sharing + "-" + ROUTE_NUMBERS.incrementAndGet();
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

	private void close(Entry entry) {
		Route route = entry.route;
		if (route.factory() != this.primary) {
			if (route.factory() instanceof LettuceConnectionFactory lettuce) {
				this.closeListeners.forEach((listener) -> listener.accept(lettuce));
				lettuce.destroy();
				// A relayed route's resources are its own copy
				// (RelayedClientConfiguration),
				// sharing the app's event loops, which their shutdown leaves running.
				if (route.addedRtt() != null) {
					lettuce.getClientConfiguration().getClientResources().ifPresent(ClientResources::shutdown);
				}
			}
			else if (route.factory() instanceof JedisConnectionFactory jedis) {
				jedis.destroy();
			}
		}
		Duration rtt = entry.key.rtt();
		if (rtt != null && !rttInUse(rtt)) {
			this.relays.entrySet().removeIf((relay) -> {
				if (relay.getKey().rtt().equals(rtt)) {
					relay.getValue().close();
					return true;
				}
				return false;
			});
		}
	}

	private boolean rttInUse(Duration rtt) {
		synchronized (this.routes) {
			return this.routes.keySet().stream().anyMatch((key) -> rtt.equals(key.rtt()));
		}
	}

	@Override
	public void destroy() {
		this.idleSweeper.shutdownNow();
		List<Entry> all;
		synchronized (this.routes) {
			all = new ArrayList<>(this.routes.values());
			this.routes.clear();
			if (this.defaultRoute != null) {
				all.add(this.defaultRoute);
			}
		}
		all.forEach(this::close);
		this.relays.values().forEach(LatencyRelay::close);
		this.relays.clear();
	}

	/**
	 * @param policy Lettuce's flush policy; null for Jedis
	 * @param writes Lettuce's way of handing flushes to Netty; null for Jedis
	 */
	private record Key(Connector connector, Sharing sharing, @Nullable FlushPolicy policy, @Nullable Writes writes,
			@Nullable Duration rtt) {
	}

	private record RelayKey(Duration rtt, String host, int port) {
	}

	private static final class Entry {

		final Key key;

		final Route route;

		/** Runs using the route now; guarded by the routes map. */
		int users;

		/** Dropped from the map: closed once {@link #users} is back to 0. */
		boolean evicted;

		/** When the last run let it go; guarded by the routes map. */
		long lastUsedNanos = System.nanoTime();

		Entry(Key key, Route route) {
			this.key = key;
			this.route = route;
		}

	}

	/** One run's hold on a route; closing it lets an evicted route close. */
	public static final class Lease implements AutoCloseable {

		private final Connections owner;

		private final Entry entry;

		private boolean released;

		private Lease(Connections owner, Entry entry) {
			this.owner = owner;
			this.entry = entry;
		}

		public Route route() {
			return this.entry.route;
		}

		@Override
		public void close() {
			if (!this.released) {
				this.released = true;
				this.owner.release(this.entry);
			}
		}

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

}
