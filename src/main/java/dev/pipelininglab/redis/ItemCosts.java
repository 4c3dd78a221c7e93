package dev.pipelininglab.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/** What one item of a run costs in Redis' memory, measured on a small sample. */
@Component
public class ItemCosts {

	// What MEMORY USAGE misses per string key: its main-dictionary slot, its expires
	// entry and slot, and 8 bytes of its own entry's allocation; fitted on Redis 7.0
	// (docs/reliability.md, "How close the estimate is").
	static final long KEYSPACE_TABLES = 72;

	// MEMORY USAGE counts a collection's entries at 24 bytes, which jemalloc allocates as
	// 32.
	static final long ENTRY_ROUNDING = 8;

	static final long SAMPLE_BYTES = 256 * 1024;

	static final int STRING_SAMPLE = 8;

	// More than Redis' listpack limits, so a large collection is measured in the encoding
	// it will have.
	static final int ELEMENT_SAMPLE = 1024;

	private static final Logger log = LoggerFactory.getLogger(ItemCosts.class);

	private static final int CACHED = 64;

	private static final int SDS_HEADER = 10;

	private final Map<String, Long> measured = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
			return size() > CACHED;
		}

	};

	private final NodeConnections.Own connection;

	ItemCosts(NodeConnections.Own connection) {
		this.connection = connection;
	}

	// Measured on a sample, unless the sample itself might not fit; guessed then, or
	// when it cannot be measured.
	synchronized long of(Preflight.Part part, String server, long roomEverywhere) {
		if (sampleItems(part) * guessed(part) * 2 > roomEverywhere) {
			return guessed(part);
		}
		String key = server + "|" + part.shape() + "|" + part.valueSize() + "|" + part.keys().keyPattern() + "|"
				+ Long.toString(part.lastIndex()).length();
		Long known = this.measured.get(key);
		if (known != null) {
			return known;
		}
		try {
			long cost = measure(part);
			this.measured.put(key, cost);
			log.debug("One {} item of {} bytes costs {} bytes on {}", part.shape(), part.valueSize(), cost, server);
			return cost;
		}
		catch (RuntimeException ex) {
			log.debug("Could not measure a sample of {}: {}", part.shape(), ex.toString());
			return guessed(part);
		}
	}

	private static long guessed(Preflight.Part part) {
		long value = allocated(value(part, part.lastIndex()).length() + SDS_HEADER);
		return switch (part.shape()) {
			case STRING -> part.keys().keyBytes(part.lastIndex()).length + value + 64 + KEYSPACE_TABLES;
			case HASH -> part.keys().fieldBytes(part.lastIndex()).length + value + 64;
			case SET, ZSET -> value + 80;
			case LIST -> value + 16;
		};
	}

	public static long allocated(long bytes) {
		if (bytes <= 16) {
			return 16;
		}
		int doubling = 63 - Long.numberOfLeadingZeros(bytes - 1);
		long spacing = 1L << Math.max(4, doubling - 2);
		return (bytes + spacing - 1) / spacing * spacing;
	}

	private static int sampleItems(Preflight.Part part) {
		long each = value(part, part.lastIndex()).length() + 64;
		int most = (part.shape() == MemoryShape.STRING) ? STRING_SAMPLE : ELEMENT_SAMPLE;
		return (int) Math.max(1, Math.min(part.items(), Math.min(most, SAMPLE_BYTES / each)));
	}

	private long measure(Preflight.Part part) {
		RedisClusterCommands<String, String> redis = this.connection.commands();
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
					total += usage(redis, key) - KeySpace.bytes(key).length + part.keys().keyBytes(index).length;
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
		for (int from = 0; from < n; from += 64) {
			List<Long> indexes = LongStream.range(from, Math.min(n, from + 64))
				.map((j) -> part.lastIndex() - j)
				.boxed()
				.toList();
			switch (part.shape()) {
				case HASH -> redis.hset(key,
						indexes.stream().collect(Collectors.toMap(part.keys()::field, (index) -> value(part, index))));
				case SET -> redis.sadd(key, values(part, indexes));
				case ZSET -> redis.zadd(key,
						indexes.stream().map((index) -> ScoredValue.just(index, value(part, index))).toArray());
				case LIST -> redis.rpush(key, values(part, indexes));
				case STRING -> throw new IllegalStateException("strings are measured key by key");
			}
		}
	}

	private static String[] values(Preflight.Part part, List<Long> indexes) {
		return indexes.stream().map((index) -> value(part, index)).toArray(String[]::new);
	}

	private static long usage(RedisClusterCommands<String, String> redis, String key) {
		return Objects.requireNonNull(redis.memoryUsage(key), () -> "MEMORY USAGE found no " + key);
	}

	private static String value(Preflight.Part part, long index) {
		return part.keys().value(Math.max(0, index), part.valueSize());
	}

	private static long ceilDiv(long total, long n) {
		return (total + n - 1) / n;
	}

}
