package dev.pipelininglab.testsupport;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.localredis.RedisServerProcess;

/**
 * One plain Redis server on a free loopback port.
 */
public final class StandaloneRedis implements AutoCloseable, SpringRedis {

	/** Replaced by {@link #restart()}; whichever is current is the one stopped. */
	private volatile RedisServerProcess process;

	private final boolean shared;

	private StandaloneRedis(RedisServerProcess process, boolean shared) {
		this.process = process;
		this.shared = shared;
	}

	static StandaloneRedis start(Path binary, boolean shared) {
		RedisServerProcess process = Topologies.startOnFreePort(
				(port) -> RedisServerProcess.start(binary, port, Topologies.freshDir("standalone-" + port)),
				RedisServerProcess::freePort);
		return new StandaloneRedis(process, shared);
	}

	public RedisServerProcess process() {
		return this.process;
	}

	public String host() {
		return this.process.host();
	}

	public int port() {
		return this.process.port();
	}

	/**
	 * {@code spring.data.redis.host} and {@code spring.data.redis.port} of this server.
	 */
	@Override
	public Map<String, String> springProperties() {
		return Map.of("spring.data.redis.host", host(), "spring.data.redis.port", Integer.toString(port()));
	}

	/**
	 * Starts a new, empty server in place of this one, which the test killed: same port,
	 * same directory, and stopped with the app like the first.
	 * @throws IllegalStateException for the shared instance, which other tests still use
	 */
	public void restart() {
		Topologies.checkOwned(this.shared, "standalone");
		this.process = RedisServerProcess.start(RedisTestServers.binary(), port(), this.process.workDir());
	}

	/**
	 * FLUSHALL on this server, and only on it.
	 */
	public void flushAll() {
		Topologies.flushMasters(List.of(this.process));
	}

	/**
	 * Stops the server of an instance from {@link RedisTestServers#newStandalone()}.
	 * @throws IllegalStateException for the shared instance, which other tests still use
	 */
	@Override
	public void close() {
		Topologies.checkOwned(this.shared, "standalone");
		Outages.stop(this.process);
	}

	@Override
	public String toString() {
		return "StandaloneRedis" + springProperties();
	}

}
