package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * What one item of a run costs in Redis' memory, measured on the server itself: a small
 * sample of the run's own shape (string keys, or elements of a hash, set, sorted set or
 * list) and value size, written under {@code <prefix>:preflight:}, sized with
 * {@code MEMORY USAGE}, and removed at once. Measured once per server, shape and value
 * size; later runs of the same kind reuse the figure.
 * <p>
 * {@code MEMORY USAGE} counts a key's own allocations (key, value, its dictionary entry
 * and, for a collection, its element tables) in the allocator's real sizes. It leaves out
 * what a string key costs in the keyspace's tables: its slot in the main dictionary, and
 * the entry and slot in the expires dictionary every key the lab leaves gets
 * ({@code lab.keys.expire-after}); {@link #KEYSPACE_TABLES} adds them.
 */
@Component
public class ItemCosts implements DisposableBean {

	/**
	 * Per string key beside {@code MEMORY USAGE}: a main-dictionary slot (8 to 16 bytes,
	 * as the table is a power of two), the expires entry (24 bytes, allocated as 32) and
	 * its slot, and the 8 bytes {@code MEMORY USAGE} misses on its own entry (24,
	 * allocated as 32). Fitted on Redis 7.0 (docs/reliability.md, "How close the estimate
	 * is").
	 */
	static final long KEYSPACE_TABLES = 72;

	/**
	 * Per element of a hash, set or sorted set beside {@code MEMORY USAGE}, which counts
	 * each dictionary entry at its 24 bytes while the allocator gives it 32: measured
	 * within 1% after this (docs/reliability.md, "How close the estimate is").
	 */
	static final long ENTRY_ROUNDING = 8;

	/** The most a sample writes, so measuring never costs a full server much. */
	static final long SAMPLE_BYTES = 256 * 1024;

	/** String keys measured: their sizes barely differ. */
	static final int STRING_SAMPLE = 8;

	/**
	 * Elements of a collection measured: more than Redis' listpack limits (128 entries by
	 * default, 512 in some builds: Redis 7.0.15 here kept a hash of 256 fields as a
	 * listpack, a third of the size it has as a hash table), so a large collection is
	 * measured in the encoding it will have.
	 */
	static final int ELEMENT_SAMPLE = 1024;

	private static final Logger log = LoggerFactory.getLogger(ItemCosts.class);

	private static final int CACHED = 64;

	private final LettuceConnectionFactory factory;

	/** An sds string's header and terminator, at most. */
	private static final int SDS_HEADER = 10;

	private final Map<String, Long> measured = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
			return size() > CACHED;
		}

	};

	private @Nullable StatefulConnection<String, String> connection;

	ItemCosts(LettuceConnectionFactory factory) {
		this.factory = factory;
	}

	/**
	 * Bytes one item of {@code part} adds, measured on the server named {@code server}
	 * unless it has been before.
	 */
	synchronized long measured(Preflight.Part part, String server) {
		String key = server + "|" + part.shape() + "|" + part.valueSize() + "|" + part.keys().keyPattern() + "|"
				+ Long.toString(part.lastIndex()).length();
		Long known = this.measured.get(key);
		if (known != null) {
			return known;
		}
		long cost = measure(part);
		this.measured.put(key, cost);
		log.debug("One {} item of {} bytes costs {} bytes on {}", part.shape(), part.valueSize(), cost, server);
		return cost;
	}

	/**
	 * A guess without asking the server, when a sample would not fit: the bytes plus what
	 * Redis 7.0 spends beside them.
	 */
	static long guessed(Preflight.Part part) {
		long value = allocated(value(part, part.lastIndex()).length() + SDS_HEADER);
		return switch (part.shape()) {
			case STRING -> part.keys().keyBytes(part.lastIndex()).length + value + 64 + KEYSPACE_TABLES;
			case HASH -> part.keys().fieldBytes(part.lastIndex()).length + value + 64;
			case SET, ZSET -> value + 80;
			case LIST -> value + 16;
		};
	}

	/**
	 * What jemalloc, Redis' allocator, hands out for {@code bytes}: four size classes per
	 * doubling, so a 1 MiB value takes 1.25 MiB, a quarter more than its bytes.
	 */
	public static long allocated(long bytes) {
		if (bytes <= 16) {
			return 16;
		}
		int doubling = 63 - Long.numberOfLeadingZeros(bytes - 1);
		long spacing = 1L << Math.max(4, doubling - 2);
		return (bytes + spacing - 1) / spacing * spacing;
	}

	/** How many items a sample of {@code part} writes. */
	static int sampleItems(Preflight.Part part) {
		long each = value(part, part.lastIndex()).length() + 64;
		int most = (part.shape() == MemoryShape.STRING) ? STRING_SAMPLE : ELEMENT_SAMPLE;
		return (int) Math.max(1, Math.min(part.items(), Math.min(most, SAMPLE_BYTES / each)));
	}

	/** About what a sample of {@code part} holds in Redis while it is measured. */
	static long sampleBytes(Preflight.Part part) {
		return sampleItems(part) * guessed(part);
	}

	private long measure(Preflight.Part part) {
		RedisClusterCommands<String, String> redis = commands();
		String stem = part.keys().prefix() + ":preflight:";
		int n = sampleItems(part);
		List<String> written = new ArrayList<>();
		try {
			if (part.shape() == MemoryShape.STRING) {
				long total = 0;
				for (int j = 0; j < n; j++) {
					long index = part.lastIndex() - j;
					String key = stem + j;
					written.add(key);
					redis.set(key, value(part, index));
					total += usage(redis, key) - bytes(key) + part.keys().keyBytes(index).length;
				}
				return ceilDiv(total, n) + KEYSPACE_TABLES;
			}
			String key = stem + part.shape().name().toLowerCase(java.util.Locale.ROOT);
			written.add(key);
			fill(redis, part, key, n);
			return ceilDiv(usage(redis, key), n) + ((part.shape() == MemoryShape.LIST) ? 0 : ENTRY_ROUNDING);
		}
		finally {
			redis.unlink(written.toArray(new String[0]));
		}
	}

	private static void fill(RedisClusterCommands<String, String> redis, Preflight.Part part, String key, int n) {
		int chunk = 64;
		for (int from = 0; from < n; from += chunk) {
			int to = Math.min(n, from + chunk);
			switch (part.shape()) {
				case HASH -> {
					Map<String, String> fields = new LinkedHashMap<>();
					for (int j = from; j < to; j++) {
						long index = part.lastIndex() - j;
						fields.put(part.keys().field(index), value(part, index));
					}
					redis.hset(key, fields);
				}
				case SET -> redis.sadd(key, values(part, from, to));
				case ZSET -> {
					List<ScoredValue<String>> members = new ArrayList<>();
					for (int j = from; j < to; j++) {
						long index = part.lastIndex() - j;
						members.add(ScoredValue.just(index, value(part, index)));
					}
					redis.zadd(key, members.toArray());
				}
				case LIST -> redis.rpush(key, values(part, from, to));
				case STRING -> throw new IllegalStateException("strings are measured key by key");
			}
		}
	}

	private static String[] values(Preflight.Part part, int from, int to) {
		String[] values = new String[to - from];
		for (int j = from; j < to; j++) {
			values[j - from] = value(part, part.lastIndex() - j);
		}
		return values;
	}

	private static long usage(RedisClusterCommands<String, String> redis, String key) {
		Long usage = redis.memoryUsage(key);
		if (usage == null) {
			throw new IllegalStateException("MEMORY USAGE found no " + key);
		}
		return usage;
	}

	private static String value(Preflight.Part part, long index) {
		return part.keys().value(Math.max(0, index), part.valueSize());
	}

	private static int bytes(String key) {
		return key.getBytes(StandardCharsets.UTF_8).length;
	}

	private static long ceilDiv(long total, long n) {
		return (total + n - 1) / n;
	}

	private RedisClusterCommands<String, String> commands() {
		StatefulConnection<String, String> open = this.connection;
		if (open == null || !open.isOpen()) {
			open = NodeConnections.open(this.factory);
			this.connection = open;
		}
		return (open instanceof StatefulRedisClusterConnection<String, String> cluster) ? cluster.sync()
				: ((StatefulRedisConnection<String, String>) open).sync();
	}

	@Override
	public synchronized void destroy() {
		if (this.connection != null) {
			this.connection.close();
		}
	}

}
