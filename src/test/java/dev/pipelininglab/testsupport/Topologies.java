package dev.pipelininglab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.pipelininglab.localredis.RedisServerProcess;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;

/**
 * What the topologies share: where they live on disk, how they wait, how they stop.
 */
final class Topologies {

	static final String HOST = "127.0.0.1";

	/**
	 * For every server that is or may become a master with replicas: Redis 7 syncs
	 * replicas diskless by default and then waits 5 s for more replicas to join the
	 * transfer, which would add 5 s to every topology's startup.
	 */
	static final String[] NO_SYNC_DELAY = { "--repl-diskless-sync-delay", "0" };

	private static final int START_ATTEMPTS = 3;

	private static final int ADMIN_TIMEOUT_MILLIS = 5_000;

	private Topologies() {
	}

	/**
	 * {@code target/redis-test/<name>}, emptied first: a cluster node finding an old
	 * {@code nodes.conf} would rejoin a cluster that no longer exists.
	 */
	static Path freshDir(String name) {
		Path dir = Paths.get(System.getProperty("user.dir"), "target", "redis-test", name);
		try {
			if (Files.exists(dir)) {
				try (Stream<Path> paths = Files.walk(dir)) {
					for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
						Files.delete(path);
					}
				}
			}
			return Files.createDirectories(dir);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot prepare " + dir, ex);
		}
	}

	/**
	 * Starts a server on a port from {@code ports}, retrying with another port if the
	 * start fails: a port that was free when chosen can be taken by a concurrent test run
	 * before redis-server binds it.
	 */
	static RedisServerProcess startOnFreePort(IntFunction<RedisServerProcess> start, IntSupplier ports) {
		IllegalStateException last = null;
		for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
			try {
				return start.apply(ports.getAsInt());
			}
			catch (IllegalStateException ex) {
				last = ex;
			}
		}
		throw last;
	}

	/**
	 * Polls {@code check} until it returns {@code null}; anything else is a description
	 * of what is still missing, reported if the timeout passes. Exceptions (a node not
	 * answering yet, an error reply) count as "not yet".
	 */
	static void await(String what, Duration timeout, Supplier<@Nullable String> check) {
		AtomicReference<@Nullable String> missing = new AtomicReference<>();
		try {
			Awaitility.await(what).atMost(timeout).pollInterval(Duration.ofMillis(50)).until(() -> {
				try {
					missing.set(check.get());
				}
				catch (RuntimeException ex) {
					missing.set(ex.toString());
				}
				return missing.get() == null;
			});
		}
		catch (ConditionTimeoutException ex) {
			throw new IllegalStateException(
					"Timed out after " + timeout.toSeconds() + " s waiting for " + what + ": " + missing.get(), ex);
		}
	}

	/**
	 * FLUSHALL on every live node of {@code nodes} that is a master right now (roles
	 * change with failovers), then WAIT for its replicas, so a test reading from a
	 * replica does not see the previous test's keys.
	 */
	static void flushMasters(List<RedisServerProcess> nodes) {
		for (RedisServerProcess node : nodes) {
			if (!node.isAlive() || Outages.isPaused(node)) {
				continue;
			}
			try (Jedis jedis = jedis(node)) {
				if (!"master".equals(role(jedis))) {
					continue;
				}
				jedis.flushAll();
				int replicas = Integer.parseInt(info(jedis, "replication").getOrDefault("connected_slaves", "0"));
				if (replicas > 0) {
					jedis.waitReplicas(replicas, 2000);
				}
			}
		}
	}

	/**
	 * A Jedis connection for the admin commands that set topologies up and look at them:
	 * blocking, no event loops, and not the client the tests exercise. To close.
	 */
	static Jedis jedis(RedisServerProcess node) {
		return new Jedis(node.host(), node.port(),
				DefaultJedisClientConfig.builder()
					.connectionTimeoutMillis(ADMIN_TIMEOUT_MILLIS)
					.socketTimeoutMillis(ADMIN_TIMEOUT_MILLIS)
					.build());
	}

	/** Runs {@code commands} on a connection of their own to {@code node}. */
	static <T> T on(RedisServerProcess node, Function<Jedis, T> commands) {
		try (Jedis jedis = jedis(node)) {
			return commands.apply(jedis);
		}
	}

	/** {@code master}, {@code slave} or {@code sentinel}, from ROLE. */
	static String role(Jedis jedis) {
		return String.valueOf(jedis.role().get(0));
	}

	/** {@code INFO <section>} as key/value pairs. */
	static Map<String, String> info(Jedis jedis, String section) {
		return parseInfo(jedis.info(section));
	}

	/** Lines of {@code key:value} (INFO, CLUSTER INFO) as a map; headings skipped. */
	static Map<String, String> parseInfo(String info) {
		Map<String, String> map = new LinkedHashMap<>();
		for (String line : info.split("\r?\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && !line.startsWith("#")) {
				map.put(line.substring(0, colon), line.substring(colon + 1).strip());
			}
		}
		return map;
	}

	static void checkOwned(boolean shared, String topology) {
		if (shared) {
			throw new IllegalStateException("The shared " + topology + " is used by other tests and stopped when the "
					+ "JVM exits; use RedisTestServers.new...() for an instance to close");
		}
	}

	/**
	 * Stops all in parallel: each stop waits for its process to exit (up to a server cron
	 * tick), and the nodes of a topology need not wait for each other.
	 */
	static void stopAll(List<RedisServerProcess> processes) {
		List<Thread> stoppers = processes.stream()
			.map((process) -> new Thread(() -> Outages.stop(process), "stop-redis-" + process.port()))
			.toList();
		stoppers.forEach(Thread::start);
		for (Thread stopper : stoppers) {
			try {
				stopper.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

}
