package dev.pipelininglab.localredis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import dev.pipelininglab.Loopback;
import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.FileSystemUtils;
import org.springframework.util.StringUtils;

/** Starts a {@code redis-server} when the configured local Redis does not answer. */
class LocalRedisLauncher implements EnvironmentPostProcessor, Ordered {

	private static final String DISABLE = "lab.local-redis.enabled=false";

	private static final List<String> NOT_STANDALONE = List.of("spring.data.redis.url",
			"spring.data.redis.sentinel.nodes", "spring.data.redis.cluster.nodes",
			"spring.data.redis.masterreplica.nodes");

	private static final int PROBE_TIMEOUT_MILLIS = 500;

	private static final String PID_FILE = "redis.pid";

	// Per JVM: a second context on the same port reuses the server, and the last one to
	// close stops it.
	private static final Map<Integer, LocalServer> RUNNING = new HashMap<>();

	private final Log log;

	LocalRedisLauncher(DeferredLogFactory logFactory) {
		this.log = logFactory.getLog(LocalRedisLauncher.class);
	}

	@Override
	public int getOrder() {
		// After config data, so application.properties and profiles are visible.
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		// Bound here, before any bean exists: the server must answer before the
		// connection factory starts.
		LocalRedisProperties properties = Binder.get(environment)
			.bindOrCreate("lab.local-redis", LocalRedisProperties.class);
		if (!properties.enabled()) {
			this.log.debug("Local Redis launcher disabled by " + DISABLE);
			return;
		}
		for (String property : NOT_STANDALONE) {
			if (StringUtils.hasText(environment.getProperty(property))) {
				this.log.debug("Not starting a local Redis: " + property + " is set");
				return;
			}
		}
		String host = environment.getProperty("spring.data.redis.host", "localhost");
		int port = environment.getProperty("spring.data.redis.port", Integer.class, 6379);
		if (!Loopback.is(host)) {
			this.log.debug("Not starting a local Redis: " + host + " is not a loopback address");
			return;
		}
		LocalServer server = acquire(host, port, properties, environment);
		if (server != null) {
			application.addListeners(stopWithContext(server));
		}
	}

	private @Nullable LocalServer acquire(String host, int port, LocalRedisProperties properties,
			ConfigurableEnvironment environment) {
		synchronized (RUNNING) {
			LocalServer server = RUNNING.get(port);
			if (server != null && server.process().isAlive()) {
				this.log.debug("Reusing the local redis-server this JVM started on " + host + ":" + port);
			}
			else if (isReachable(host, port)) {
				this.log.debug("Redis reachable at " + host + ":" + port + ", not starting a local one");
				return null;
			}
			else {
				server = new LocalServer(start(host, port, properties, environment), new AtomicInteger());
				RUNNING.put(port, server);
			}
			server.users().incrementAndGet();
			return server;
		}
	}

	private RedisServerProcess start(String host, int port, LocalRedisProperties properties,
			ConfigurableEnvironment environment) {
		Path binary = RedisServerBinary.resolve(properties.binary());
		String version = RedisServerBinary.version(binary);
		removeStaleRunDirectories(RedisServerBinary.cacheDir());
		RedisServerProcess.Launch builder = RedisServerProcess
			.builder(binary, port, RedisServerBinary.cacheDir().resolve("run-" + port))
			.host(host.equalsIgnoreCase("localhost") ? "127.0.0.1" : host);
		String password = environment.getProperty("spring.data.redis.password");
		if (StringUtils.hasText(password)) {
			builder.args("--requirepass", password);
		}
		RedisServerProcess process = builder.start();
		try {
			Files.writeString(process.workDir().resolve(PID_FILE), Long.toString(process.pid()));
		}
		catch (IOException ex) {
			this.log.debug("Could not write " + process.workDir().resolve(PID_FILE) + ": " + ex);
		}
		this.log.info("Nothing listened on " + host + ":" + port + ", so started redis-server " + version + " from "
				+ binary + " on " + process.host() + ":" + port + " (pid " + process.pid() + ", log "
				+ process.logFile() + "). It will be stopped when the application shuts down; set " + DISABLE
				+ " to use no local Redis.");
		return process;
	}

	void removeStaleRunDirectories(Path cacheDir) {
		if (!Files.isDirectory(cacheDir)) {
			return;
		}
		try (Stream<Path> dirs = Files.list(cacheDir)) {
			for (Path dir : dirs.filter((dir) -> dir.getFileName().toString().startsWith("run-")).toList()) {
				if (!isInUse(dir) && FileSystemUtils.deleteRecursively(dir)) {
					this.log.debug("Removed " + dir + ", left by a local redis-server that is gone");
				}
			}
		}
		catch (IOException ex) {
			this.log.debug("Could not look for stale folders in " + cacheDir + ": " + ex);
		}
	}

	private static boolean isInUse(Path dir) {
		try {
			Path pidFile = dir.resolve(PID_FILE);
			if (!Files.exists(pidFile)) {
				// Another app may be starting its server there.
				return Files.getLastModifiedTime(dir).toInstant().isAfter(Instant.now().minusSeconds(60));
			}
			long pid = Long.parseLong(Files.readString(pidFile).strip());
			return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
		}
		catch (IOException | NumberFormatException ex) {
			return false;
		}
	}

	private ApplicationListener<ApplicationEvent> stopWithContext(LocalServer server) {
		AtomicBoolean released = new AtomicBoolean();
		Runnable release = () -> {
			if (released.compareAndSet(false, true)) {
				release(server);
			}
		};
		return (event) -> {
			if (event instanceof ApplicationPreparedEvent prepared && prepared.getApplicationContext()
				.getBeanFactory() instanceof DefaultSingletonBeanRegistry registry) {
				// Registered before any bean, it runs after all are destroyed:
				// ContextClosedEvent comes before graceful shutdown and the connection
				// factory's close, which still need Redis.
				registry.registerDisposableBean(LocalRedisLauncher.class.getName() + ".server", release::run);
			}
			else if (event instanceof ApplicationFailedEvent) {
				release.run();
			}
		};
	}

	private void release(LocalServer server) {
		synchronized (RUNNING) {
			if (server.users().decrementAndGet() > 0) {
				return;
			}
			RUNNING.remove(server.process().port(), server);
		}
		server.process().stop();
		this.log.info("Stopped the local redis-server on " + server.process().host() + ":" + server.process().port());
	}

	static boolean isReachable(String host, int port) {
		InetAddress[] addresses;
		try {
			addresses = InetAddress.getAllByName(host);
		}
		catch (UnknownHostException ex) {
			return false;
		}
		for (InetAddress address : addresses) {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(address, port), PROBE_TIMEOUT_MILLIS);
				return true;
			}
			catch (IOException ex) {
			}
		}
		return false;
	}

	private record LocalServer(RedisServerProcess process, AtomicInteger users) {

	}

}
