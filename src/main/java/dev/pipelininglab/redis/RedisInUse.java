package dev.pipelininglab.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import dev.pipelininglab.Loopback;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConverters;
import org.springframework.stereotype.Component;

/**
 * Logs which Redis the app will write to once it is ready (a WARN off loopback), and one
 * INFO line each time the sentinels switch the lab's master.
 */
@Component
class RedisInUse implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(RedisInUse.class);

	private static final String CHANNEL = "+switch-master";

	private final Topology topology;

	private final ServerCounters servers;

	private final LettuceConnectionFactory factory;

	private final AtomicReference<String> lastSwitch = new AtomicReference<>("");

	private final List<StatefulRedisPubSubConnection<String, String>> subscriptions = new ArrayList<>();

	private @Nullable RedisClient client;

	RedisInUse(Topology topology, ServerCounters servers, LettuceConnectionFactory factory) {
		this.topology = topology;
		this.servers = servers;
		this.factory = factory;
	}

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
		return Loopback.is((colon > 0) ? address.substring(0, colon) : address);
	}

	@EventListener(ApplicationReadyEvent.class)
	synchronized void listenForMasterSwitches() {
		if (!this.factory.isRedisSentinelAware() || this.client != null) {
			return;
		}
		String master = Topology.masterName(this.factory);
		RedisClient client = RedisClient.create(this.factory.getClientResources());
		this.client = client;
		for (RedisURI sentinel : LettuceConverters.sentinelConfigurationToRedisURI(Topology.sentinels(this.factory))
			.getSentinels()) {
			try {
				StatefulRedisPubSubConnection<String, String> connection = client.connectPubSub(sentinel);
				connection.addListener(new RedisPubSubAdapter<>() {
					@Override
					public void message(String channel, String message) {
						switched(master, message);
					}
				});
				connection.sync().subscribe(CHANNEL);
				this.subscriptions.add(connection);
			}
			catch (RuntimeException ex) {
				log.debug("Cannot listen to sentinel {} for master switches: {}", sentinel, ex.toString());
			}
		}
	}

	private void switched(String master, String message) {
		String[] fields = message.split(" ");
		if (fields.length != 5 || !fields[0].equals(master)) {
			return;
		}
		String change = fields[1] + ":" + fields[2] + " -> " + fields[3] + ":" + fields[4];
		if (!this.lastSwitch.getAndSet(change).equals(change)) {
			log.info("Sentinels switched the master of '{}' from {} to {}; the app's writes follow", master,
					fields[1] + ":" + fields[2], fields[3] + ":" + fields[4]);
		}
	}

	@Override
	public synchronized void destroy() {
		this.subscriptions.forEach(StatefulRedisPubSubConnection::close);
		RedisClient client = this.client;
		if (client != null) {
			client.shutdown();
		}
	}

}
