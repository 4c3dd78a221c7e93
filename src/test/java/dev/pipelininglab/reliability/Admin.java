package dev.pipelininglab.reliability;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * A client of the tests' own, beside the app's, to set Redis up and look at what the app
 * left there. Plain Lettuce with a short timeout, so a test never hangs on a server it
 * paused or killed.
 */
final class Admin implements AutoCloseable {

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private Admin(RedisURI uri) {
		this.client = RedisClient.create(uri);
		this.connection = this.client.connect();
	}

	static Admin connect(String host, int port) {
		return new Admin(RedisURI.builder().withHost(host).withPort(port).withTimeout(Duration.ofSeconds(5)).build());
	}

	/**
	 * A connection to an emptied server without a memory limit, under noeviction: where a
	 * test that sets a small {@code maxmemory} starts, and, with
	 * {@link #liftMemoryLimit}, what it leaves for the next.
	 */
	static Admin onEmptyUnlimitedServer(String host, int port) {
		Admin admin = connect(host, port);
		admin.liftMemoryLimit();
		admin.sync().configSet("maxmemory-policy", "noeviction");
		admin.sync().flushall();
		return admin;
	}

	void liftMemoryLimit() {
		sync().configSet("maxmemory", "0");
	}

	RedisCommands<String, String> sync() {
		return this.connection.sync();
	}

	/** Every key matching {@code pattern} with its type, found with SCAN (never KEYS). */
	Map<String, String> keys(String pattern) {
		Map<String, String> found = new HashMap<>();
		ScanIterator<String> keys = ScanIterator.scan(sync(), ScanArgs.Builder.matches(pattern).limit(1000));
		keys.forEachRemaining((key) -> found.put(key, sync().type(key)));
		return found;
	}

	long usedMemory() {
		return info("memory", "used_memory");
	}

	/**
	 * A number of {@code INFO <section>}, such as {@code evicted_keys} in {@code stats}.
	 */
	long info(String section, String field) {
		return Long.parseLong(sync().info(section)
			.lines()
			.filter((line) -> line.startsWith(field + ":"))
			.findFirst()
			.orElseThrow()
			.substring(field.length() + 1)
			.strip());
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

}
