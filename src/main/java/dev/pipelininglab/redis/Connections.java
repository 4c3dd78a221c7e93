package dev.pipelininglab.redis;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import dev.pipelininglab.LabProperties;
import dev.pipelininglab.latency.LatencyRelay;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Hands out a {@link Route} per flush policy, way of writing and added round-trip time. A
 * request that asks for another flush policy gets a connection factory of its own
 * (sharing Lettuce's client resources) instead of flipping the shared factory's policy
 * under other requests.
 * <p>
 * The default route (the configured policy and way of writing, connected directly) is
 * kept for the app's lifetime; with Lettuce's own endpoint it is the auto-configured
 * factory itself. Other routes are kept for reuse, at most {@link #MAX_ROUTES} of them:
 * asking for one more evicts the least recently used, which is closed (factory, pool,
 * latency relay) as soon as no run uses it any longer. So no sequence of requests can use
 * up the instance.
 */
@Component
public class Connections implements DisposableBean {

	/**
	 * Routes kept beyond the default one; each holds a client, a small pool and maybe a
	 * relay. A handful covers every comparison the lab makes.
	 */
	static final int MAX_ROUTES = 16;

	private final LettuceConnectionFactory primary;

	private final StringRedisTemplate primaryTemplate;

	private final FlushPolicy defaultPolicy;

	private final Writes defaultWrites;

	private final Topology topology;

	/** In access order, eldest first; guarded by itself. */
	private final Map<Key, Entry> routes = new LinkedHashMap<>(MAX_ROUTES * 2, 0.75f, true);

	private final List<Consumer<LettuceConnectionFactory>> closeListeners = new CopyOnWriteArrayList<>();

	private volatile @Nullable Entry defaultRoute;

	Connections(LettuceConnectionFactory primary, StringRedisTemplate primaryTemplate, LabProperties properties,
			Topology topology) {
		this.primary = primary;
		this.primaryTemplate = primaryTemplate;
		this.defaultPolicy = properties.pipeline().flushPolicy();
		this.topology = topology;
		this.defaultWrites = effective(properties.pipeline().writes());
	}

	public FlushPolicy defaultPolicy() {
		return this.defaultPolicy;
	}

	/** How pipelines are handed to Netty unless a run asks otherwise. */
	public Writes defaultWrites() {
		return this.defaultWrites;
	}

	/**
	 * Why a run cannot ask for {@code writes} here, or null when it can: cluster clients
	 * build their node endpoints internally, so they always write per command.
	 */
	public @Nullable String unsupported(@Nullable Writes writes) {
		return (writes == Writes.PER_FLUSH && this.topology.kind() == Topology.Kind.CLUSTER)
				? "cluster clients build their node endpoints inside Lettuce, so pipelines there are always handed"
						+ " to Netty per command"
				: null;
	}

	/** The default route, kept for the app's lifetime: for untimed set-up and checks. */
	public Route primary() {
		return defaultEntry().route;
	}

	/**
	 * Calls {@code listener} with the factory of every route that is closed, before it
	 * closes, so whoever keeps connections of its own per factory can let them go.
	 */
	public void onClose(Consumer<LettuceConnectionFactory> listener) {
		this.closeListeners.add(listener);
	}

	/**
	 * A route for one run; close the lease when the run is over, so an evicted route can
	 * be closed.
	 * @param writes how pipelines are handed to Netty, or null for the configured way
	 * @param addedRtt extra round-trip time through a latency relay, or null to connect
	 * directly
	 * @throws RelayUnsupportedException when a relay is asked for on sentinel or cluster,
	 * whose clients follow addresses the servers announce and would bypass it
	 */
	public Lease lease(FlushPolicy policy, @Nullable Writes writes, @Nullable Duration addedRtt) {
		Duration rtt = (addedRtt == null || addedRtt.isZero()) ? null : addedRtt;
		if (rtt != null && this.topology.kind() != Topology.Kind.STANDALONE) {
			throw new RelayUnsupportedException(this.topology.kind());
		}
		Key key = new Key(policy, (writes != null) ? effective(writes) : this.defaultWrites, rtt);
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
			close = entry.evicted && entry.users == 0;
		}
		if (close) {
			close(entry);
		}
	}

	private Key defaultKey() {
		return new Key(this.defaultPolicy, this.defaultWrites, null);
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

	private Writes effective(Writes writes) {
		// Cluster clients build their node endpoints themselves, so they keep Lettuce's
		// per-command hand-over.
		return (this.topology.kind() == Topology.Kind.CLUSTER) ? Writes.PER_COMMAND : writes;
	}

	private Entry create(Key key) {
		if (key.rtt() == null && key.policy().equals(this.defaultPolicy) && key.writes() == Writes.PER_COMMAND) {
			return new Entry(new Route(key.policy(), key.writes(), null, this.primary, this.primaryTemplate), null);
		}
		LatencyRelay relay = (key.rtt() != null) ? relay(key.rtt()) : null;
		try {
			RedisConfiguration configuration = configuration(relay);
			LettuceClientConfiguration clientConfiguration = this.primary.getClientConfiguration();
			LettuceConnectionFactory factory = (key.writes() == Writes.PER_FLUSH)
					? new BatchWritingConnectionFactory(configuration, clientConfiguration)
					: new LettuceConnectionFactory(configuration, clientConfiguration);
			factory.setPipeliningFlushPolicy(key.policy().toLettuce());
			factory.afterPropertiesSet();
			factory.start();
			StringRedisTemplate template = new StringRedisTemplate(factory);
			return new Entry(new Route(key.policy(), key.writes(), key.rtt(), factory, template), relay);
		}
		catch (RuntimeException ex) {
			if (relay != null) {
				relay.close();
			}
			throw ex;
		}
	}

	private LatencyRelay relay(Duration rtt) {
		RedisStandaloneConfiguration direct = direct();
		return LatencyRelay.start(new InetSocketAddress(direct.getHostName(), direct.getPort()), rtt.dividedBy(2));
	}

	/**
	 * The factory keeps the configuration it was built from (standalone, socket,
	 * sentinel, cluster or static master/replica) in a private field; its getters fall
	 * back to localhost:6379 for the kinds they do not cover, so the field is read back,
	 * the way Spring Data Redis itself reads Lettuce's client URI.
	 */
	private @Nullable RedisConfiguration actual() {
		return (RedisConfiguration) new DirectFieldAccessor(this.primary).getPropertyValue("configuration");
	}

	private RedisStandaloneConfiguration direct() {
		if (!(actual() instanceof RedisStandaloneConfiguration direct)) {
			throw new RelayUnsupportedException(this.topology.kind());
		}
		return direct;
	}

	private RedisConfiguration configuration(@Nullable LatencyRelay relay) {
		if (relay == null) {
			RedisConfiguration actual = actual();
			return (actual != null) ? actual : this.primary.getStandaloneConfiguration();
		}
		RedisStandaloneConfiguration direct = direct();
		RedisStandaloneConfiguration viaRelay = new RedisStandaloneConfiguration("127.0.0.1", relay.port());
		viaRelay.setDatabase(direct.getDatabase());
		viaRelay.setUsername(direct.getUsername());
		viaRelay.setPassword(direct.getPassword());
		return viaRelay;
	}

	private void close(Entry entry) {
		LettuceConnectionFactory factory = entry.route.factory();
		if (factory != this.primary) {
			this.closeListeners.forEach((listener) -> listener.accept(factory));
			factory.destroy();
		}
		if (entry.relay != null) {
			entry.relay.close();
		}
	}

	@Override
	public void destroy() {
		List<Entry> all;
		synchronized (this.routes) {
			all = new ArrayList<>(this.routes.values());
			this.routes.clear();
			if (this.defaultRoute != null) {
				all.add(this.defaultRoute);
			}
		}
		all.forEach(this::close);
	}

	private record Key(FlushPolicy policy, Writes writes, @Nullable Duration rtt) {
	}

	private static final class Entry {

		final Route route;

		final @Nullable LatencyRelay relay;

		/** Runs using the route now; guarded by the routes map. */
		int users;

		/** Dropped from the map: closed once {@link #users} is back to 0. */
		boolean evicted;

		Entry(Route route, @Nullable LatencyRelay relay) {
			this.route = route;
			this.relay = relay;
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
	 * Sentinel and cluster clients follow the addresses the servers announce, which would
	 * bypass a relay.
	 */
	public static class RelayUnsupportedException extends RuntimeException {

		RelayUnsupportedException(Topology.Kind kind) {
			super("rtt needs a standalone Redis: " + kind
					+ " clients connect to the addresses the servers announce, which would bypass the latency relay");
		}

	}

}
