package dev.pipelininglab.redis;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/** Logs which Redis the app will write to once it is ready; a WARN off loopback. */
@Component
record RedisInUse(Topology topology, ServerCounters servers, LettuceConnectionFactory factory) {

	private static final Logger log = LoggerFactory.getLogger(RedisInUse.class);

	@EventListener(ApplicationReadyEvent.class)
	void describe() {
		Map<String, Map<String, String>> nodes = this.servers.snapshot().nodes();
		if (nodes.isEmpty()) {
			String refusal = authRefusal();
			if (refusal != null) {
				log.warn(
						"Redis at {} refuses the app's credentials ({}); runs answer 503 until"
								+ " spring.data.redis.username and password are right",
						this.topology.describe(), refusal);
			}
			else {
				log.warn("No Redis answers at {} yet; runs answer 503 until one does", this.topology.describe());
			}
			return;
		}
		String version = nodes.values()
			.stream()
			.map((info) -> info.getOrDefault("redis_version", "?"))
			.distinct()
			.reduce((a, b) -> a + "/" + b)
			.orElse("?");
		String line = "Using " + this.topology.kind() + " Redis " + version + " at " + String.join(", ", nodes.keySet())
				+ " (configured: " + String.join(", ", this.topology.nodes()) + ")";
		// "master:<port>" stands for a master too old to say its address.
		boolean remote = nodes.keySet()
			.stream()
			.anyMatch((address) -> !address.startsWith("master:") && !loopback(address))
				|| this.topology.nodes().stream().anyMatch((address) -> !loopback(address));
		if (remote) {
			log.warn("{}: not on loopback. Runs write and delete keys under the lab's prefix there", line);
		}
		else {
			log.info(line);
		}
	}

	private @Nullable String authRefusal() {
		RuntimeException failure = RedisReplies.probe(() -> {
			try (RedisConnection connection = this.factory.getConnection()) {
				connection.ping();
			}
		});
		return (failure != null) ? RedisReplies.authRefusal(failure) : null;
	}

	static boolean loopback(String address) {
		int colon = address.lastIndexOf(':');
		String host = (colon > 0) ? address.substring(0, colon) : address;
		if (host.startsWith("[") && host.endsWith("]")) {
			host = host.substring(1, host.length() - 1);
		}
		if (host.equalsIgnoreCase("localhost")) {
			return true;
		}
		try {
			return host.matches("[0-9.]+|[0-9a-fA-F:]+") && InetAddress.getByName(host).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

}
