package dev.pipelininglab.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

/**
 * Hands out a {@link Route} per connector, sharing, flush policy, writes and added RTT;
 * at most {@link #MAX_ROUTES} kept, least recently used and idle ones closed.
 */
@Component
public class RouteCache implements DisposableBean {

	// Each route holds a client and a pool; a default comparison with Jedis variants uses
	// about a dozen.
	static final int MAX_ROUTES = 16;

	private final FlushPolicy defaultPolicy;

	private final Writes defaultWrites;

	private final RouteBuilder builder;

	private final Map<RouteKey, Entry> routes = new LinkedHashMap<>(MAX_ROUTES * 2, 0.75f, true);

	// Built with the cache: the app's own factory, or a per-flush one that connects on
	// first use.
	private final Entry defaultRoute;

	private final Duration idleTimeout;

	/**
	 * On Spring's scheduler (spring.task.scheduling.*), which the run records' heartbeats
	 * use too.
	 */
	private final ScheduledFuture<?> idleSweep;

	RouteCache(LettuceConnectionFactory primary, StringRedisTemplate primaryTemplate, PipelineProperties pipeline,
			LimitProperties limits, Topology topology, TaskScheduler scheduler) {
		this.defaultPolicy = pipeline.flushPolicy();
		this.defaultWrites = pipeline.writes();
		this.builder = new RouteBuilder(primary, primaryTemplate, this.defaultPolicy, limits.maxClients(), topology);
		this.defaultRoute = create(defaultKey());
		this.idleTimeout = pipeline.routeIdleTimeout();
		Duration period = Duration.ofMillis(Math.max(100, this.idleTimeout.toMillis() / 2));
		this.idleSweep = scheduler.scheduleWithFixedDelay(this::closeIdle, Instant.now().plus(period), period);
	}

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

	public Writes defaultWrites() {
		return this.defaultWrites;
	}

	public Route primary() {
		return this.defaultRoute.route;
	}

	public void onClose(Consumer<LettuceConnectionFactory> listener) {
		this.builder.onClose(listener);
	}

	public Lease lease(Connector connector, Sharing sharing, FlushPolicy policy, @Nullable Writes writes,
			@Nullable Duration addedRtt) {
		Duration rtt = (addedRtt == null || addedRtt.isZero()) ? null : addedRtt;
		if (connector == Connector.JEDIS && sharing == Sharing.SHARED) {
			throw new ConnectorUnsupportedException(
					"Jedis connections serve one thread at a time, so Jedis has no shared connection: use pooled");
		}
		RouteKey key = key(connector, sharing, policy, writes, rtt);
		if (key.equals(defaultKey())) {
			return new Lease(this, this.defaultRoute);
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

	public Optional<Lease> leaseIfKept(Connector connector, Sharing sharing, FlushPolicy policy) {
		synchronized (this.routes) {
			Entry entry = this.routes.get(key(connector, sharing, policy, null, null));
			if (entry == null || entry.evicted) {
				return Optional.empty();
			}
			entry.users++;
			return Optional.of(new Lease(this, entry));
		}
	}

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

	// Jedis routes have neither a flush policy nor a way of writing.
	private RouteKey key(Connector connector, Sharing sharing, FlushPolicy policy, @Nullable Writes writes,
			@Nullable Duration rtt) {
		boolean lettuce = connector == Connector.LETTUCE;
		return new RouteKey(connector, sharing, lettuce ? policy : null,
				lettuce ? ((writes != null) ? writes : this.defaultWrites) : null, rtt);
	}

	private RouteKey defaultKey() {
		return key(Connector.LETTUCE, Sharing.SHARED, this.defaultPolicy, null, null);
	}

	private Entry create(RouteKey key) {
		return new Entry(key, this.builder.build(key));
	}

	private void close(Entry entry) {
		this.builder.close(entry.route);
		Duration rtt = entry.key.rtt();
		if (rtt != null && !rttInUse(rtt)) {
			this.builder.closeRelays(rtt);
		}
	}

	private boolean rttInUse(Duration rtt) {
		synchronized (this.routes) {
			return this.routes.keySet().stream().anyMatch((key) -> rtt.equals(key.rtt()));
		}
	}

	@Override
	public void destroy() {
		this.idleSweep.cancel(false);
		List<Entry> all;
		synchronized (this.routes) {
			all = new ArrayList<>(this.routes.values());
			this.routes.clear();
			all.add(this.defaultRoute);
		}
		all.forEach(this::close);
		this.builder.closeAllRelays();
	}

	private static final class Entry {

		final RouteKey key;

		final Route route;

		int users;

		boolean evicted;

		long lastUsedNanos = System.nanoTime();

		Entry(RouteKey key, Route route) {
			this.key = key;
			this.route = route;
		}

	}

	public static final class Lease implements AutoCloseable {

		private final RouteCache owner;

		private final Entry entry;

		private boolean released;

		private Lease(RouteCache owner, Entry entry) {
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

	record RouteKey(Connector connector, Sharing sharing, @Nullable FlushPolicy policy, @Nullable Writes writes,
			@Nullable Duration rtt) {
	}

	/** Jedis asked for where it cannot serve: a 400 naming {@code connector}. */
	public static class ConnectorUnsupportedException extends ProblemException {

		ConnectorUnsupportedException(String message) {
			super(ProblemType.INVALID_PARAMETER, message, "parameter", "connector");
		}

	}

}
