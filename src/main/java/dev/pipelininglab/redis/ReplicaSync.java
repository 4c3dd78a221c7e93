package dev.pipelininglab.redis;

import java.time.Duration;

import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Read-your-writes with replica reads: a marker written on each master and WAITed for;
 * the replication stream is ordered, so a replica with it has every earlier write.
 */
@Component
public class ReplicaSync implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(ReplicaSync.class);

	private static final Duration MAX_WAIT = Duration.ofSeconds(5);

	private final LettuceConnectionFactory factory;

	private final String markerKey;

	private final boolean enabled;

	private final NodeConnections.Own connection;

	ReplicaSync(LettuceConnectionFactory factory, KeySpace keys) {
		this.factory = factory;
		this.connection = new NodeConnections.Own(factory);
		this.markerKey = keys.prefix() + ":replica-sync";
		this.enabled = NodeConnections.readsFromReplicas(factory);
	}

	/** Whether reads may meet a replica that has not yet seen the latest writes. */
	public boolean readsFromReplicas() {
		return this.enabled;
	}

	public synchronized void await() {
		if (!this.enabled) {
			return;
		}
		try {
			this.connection
				.forEachMaster((master, node) -> sync(master, (node != null) ? markerIn(node) : this.markerKey));
		}
		catch (RuntimeException ex) {
			throw RedisReplies.translatedOr(ex, (other) -> new RedisSystemException(other.getMessage(), other));
		}
	}

	private void sync(RedisCommands<String, String> master, String marker) {
		int replicas = (int) NodeInfo.REPLICA.matcher(master.info("replication")).results().count();
		if (replicas == 0) {
			return;
		}
		master.set(marker, "");
		master.del(marker);
		Duration timeout = this.factory.getClientConfiguration().getCommandTimeout();
		long waitMillis = Math.max(1, Math.min(MAX_WAIT.toMillis(), timeout.toMillis() / 2));
		long acknowledged = master.waitForReplication(replicas, waitMillis);
		if (acknowledged < replicas) {
			log.debug("Only {} of {} replicas caught up within {} ms", acknowledged, replicas, waitMillis);
		}
	}

	private String markerIn(RedisClusterNode master) {
		for (int tag = 0;; tag++) {
			String key = this.markerKey + ":{" + tag + "}";
			if (master.hasSlot(SlotHash.getSlot(key))) {
				return key;
			}
		}
	}

	@Override
	public void destroy() {
		this.connection.close();
	}

}
