package dev.pipelininglab.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

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
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/** Logs one INFO line when the sentinels switch the lab's master. */
@Component
class SentinelMasterLog implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(SentinelMasterLog.class);

	static final String CHANNEL = "+switch-master";

	private final LettuceConnectionFactory factory;

	private final AtomicReference<String> lastSwitch = new AtomicReference<>("");

	private final List<StatefulRedisPubSubConnection<String, String>> subscriptions = new ArrayList<>();

	private @Nullable RedisClient client;

	SentinelMasterLog(LettuceConnectionFactory factory) {
		this.factory = factory;
	}

	@EventListener(ApplicationReadyEvent.class)
	synchronized void listen() {
		if (!this.factory.isRedisSentinelAware() || this.client != null) {
			return;
		}
		RedisSentinelConfiguration sentinels = Topology.sentinels(this.factory);
		String master = Topology.masterName(this.factory);
		RedisClient client = RedisClient.create(this.factory.getClientResources());
		this.client = client;
		for (RedisNode sentinel : sentinels.getSentinels()) {
			Integer port = sentinel.getPort();
			RedisURI.Builder uri = RedisURI.Builder.redis(sentinel.getHost(),
					(port != null) ? port : RedisURI.DEFAULT_SENTINEL_PORT);
			if (sentinels.getSentinelPassword().isPresent()) {
				String username = sentinels.getSentinelUsername();
				char[] password = sentinels.getSentinelPassword().get();
				uri = (username != null) ? uri.withAuthentication(username, password) : uri.withPassword(password);
			}
			try {
				StatefulRedisPubSubConnection<String, String> connection = client.connectPubSub(uri.build());
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

	void switched(String master, String message) {
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
