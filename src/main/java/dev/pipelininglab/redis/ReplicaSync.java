package dev.pipelininglab.redis;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.stereotype.Component;

/**
 * Read-your-writes when reads go to replicas ({@code spring.data.redis.lettuce.read-from}
 * such as {@code replica-preferred}): replication is asynchronous, so keys a run has just
 * written may not be on the replicas yet when the next step reads them there
 * (verification after SET, GET runs after their keys were prepared, SCAN for cleanup).
 * {@link #await()} waits until every online replica has applied everything its master had
 * acknowledged before the call.
 * <p>
 * Redis' WAIT counts replica acknowledgements of the calling connection's own writes, so
 * on each master this writes and deletes a marker key under the demo prefix and then
 * WAITs: the replication stream is ordered, so a replica that has the marker has every
 * earlier write, whichever connection made it. Does nothing when reads go to masters.
 */
@Component
public class ReplicaSync implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(ReplicaSync.class);

	private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

	private static final Pattern ONLINE_REPLICA = Pattern.compile("(?m)^slave\\d+:.*state=online");

	/**
	 * Server-side bound of one WAIT; a replica that cannot catch up in this time is not
	 * waited for any longer.
	 */
	private static final Duration MAX_WAIT = Duration.ofSeconds(5);

	private final LettuceConnectionFactory factory;

	private final String markerKey;

	private final boolean enabled;

	private @Nullable StatefulConnection<String, String> connection;

	ReplicaSync(LettuceConnectionFactory factory, KeySpace keys) {
		this.factory = factory;
		this.markerKey = keys.prefix() + ":replica-sync";
		this.enabled = NodeConnections.readsFromReplicas(factory);
	}

	/**
	 * Returns once every online replica has applied what its master held when this was
	 * called, or once the WAIT bound has passed (the caller then reads what the replica
	 * has, as any replica reader would).
	 */
	public synchronized void await() {
		if (!this.enabled) {
			return;
		}
		try {
			StatefulConnection<String, String> connection = connection();
			if (connection instanceof StatefulRedisClusterConnection<String, String> cluster) {
				for (RedisClusterNode node : cluster.getPartitions()) {
					if (node.is(NodeFlag.UPSTREAM) && !node.hasNoSlots() && !node.is(NodeFlag.FAIL)) {
						RedisCommands<String, String> master = cluster
							.getConnection(node.getUri().getHost(), node.getUri().getPort())
							.sync();
						sync(master, markerIn(node));
					}
				}
			}
			else {
				sync(((StatefulRedisConnection<String, String>) connection).sync(), this.markerKey);
			}
		}
		catch (RuntimeException ex) {
			DataAccessException translated = EXCEPTIONS.convert(ex);
			throw (translated != null) ? translated : new RedisSystemException(ex.getMessage(), ex);
		}
	}

	private void sync(RedisCommands<String, String> master, String marker) {
		Matcher online = ONLINE_REPLICA.matcher(master.info("replication"));
		int replicas = 0;
		while (online.find()) {
			replicas++;
		}
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

	/**
	 * The marker key with a hash tag that puts it in one of {@code master}'s slots, so
	 * SET goes to that master.
	 */
	private String markerIn(RedisClusterNode master) {
		for (int tag = 0;; tag++) {
			String key = this.markerKey + ":{" + tag + "}";
			if (master.hasSlot(SlotHash.getSlot(key))) {
				return key;
			}
		}
	}

	/**
	 * A connection of its own: a blocking WAIT on the shared connection would hold up
	 * every other request.
	 */
	private StatefulConnection<String, String> connection() {
		if (this.connection == null || !this.connection.isOpen()) {
			this.connection = NodeConnections.open(this.factory);
		}
		return this.connection;
	}

	@Override
	public synchronized void destroy() {
		if (this.connection != null) {
			this.connection.close();
		}
	}

}
