package dev.pipelininglab.redis;

import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** Removes every key under the prefix with SCAN + UNLINK, never KEYS or FLUSHALL. */
@Component
public class KeyCleaner {

	private static final int BATCH = 1000;

	private final StringRedisTemplate template;

	private final KeySpace keySpace;

	private final ReplicaSync replicas;

	KeyCleaner(StringRedisTemplate template, KeySpace keySpace, ReplicaSync replicas) {
		this.template = template;
		this.keySpace = keySpace;
		this.replicas = replicas;
	}

	public long deleteAll() {
		ScanOptions options = ScanOptions.scanOptions().match(this.keySpace.scanPattern()).count(BATCH).build();
		Long deleted = this.template.execute((RedisCallback<Long>) (connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				long total = 0;
				for (RedisClusterNode node : cluster.clusterGetNodes()) {
					if (node.isMaster() && node.isConnected()) {
						total += unlinkAll(connection, cluster.scan(node, options));
					}
				}
				return total;
			}
			this.replicas.await();
			return unlinkAll(connection, connection.keyCommands().scan(options));
		});
		return (deleted != null) ? deleted : 0;
	}

	private long unlinkAll(RedisConnection connection, Cursor<byte[]> cursor) {
		long deleted = 0;
		List<byte[]> batch = new ArrayList<>(BATCH);
		try (cursor) {
			while (cursor.hasNext()) {
				batch.add(cursor.next());
				if (batch.size() == BATCH) {
					deleted += unlink(connection, batch);
				}
			}
		}
		return deleted + unlink(connection, batch);
	}

	private long unlink(RedisConnection connection, List<byte[]> keys) {
		if (keys.isEmpty()) {
			return 0;
		}
		Long removed = connection.keyCommands().unlink(keys.toArray(new byte[0][]));
		keys.clear();
		return (removed != null) ? removed : 0;
	}

}
