package dev.pipelininglab.job;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Run records in Redis, under the demo prefix so {@code DELETE /keys} removes them with
 * everything else: {@code <prefix>:run:<id>} holds the record as JSON,
 * {@code <prefix>:run:<id>:cancel} marks a cancel request, and the sorted set
 * {@code <prefix>:runs} orders ids by creation time. Every key expires, so a lab left
 * alone cleans up after itself. Each operation touches one key, so the same code works on
 * a cluster.
 */
@Component
class RunStore {

	private static final Logger log = LoggerFactory.getLogger(RunStore.class);

	/** Anything but a UUID cannot name a record and must not reach a key name. */
	private static final Pattern ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	private final String runStem;

	private final String indexKey;

	private final Duration ttl;

	/** A record still QUEUED or RUNNING past this belongs to an instance that died. */
	private final Duration staleAfter;

	private final int history;

	private final Topology topology;

	private final PipelineProperties pipeline;

	private final int maxConcurrent;

	private final AtomicReference<@Nullable String> lastVersion = new AtomicReference<>();

	RunStore(StringRedisTemplate redis, JsonMapper json, KeySpace keys, JobProperties settings, Topology topology,
			PipelineProperties pipeline) {
		this.redis = redis;
		// Records are read leniently: a newer instance may have added fields.
		this.json = json.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
		this.runStem = keys.prefix() + ":run:";
		this.indexKey = keys.prefix() + ":runs";
		this.ttl = settings.recordTtl();
		this.staleAfter = settings.staleAfter();
		this.history = settings.history();
		this.topology = topology;
		this.pipeline = pipeline;
		this.maxConcurrent = settings.maxConcurrent();
	}

	static boolean isId(String id) {
		return ID.matcher(id).matches();
	}

	String recordKey(String id) {
		return this.runStem + id;
	}

	String cancelKey(String id) {
		return this.runStem + id + ":cancel";
	}

	/** Drops index entries past the history length or the record TTL. */
	void create(RunRecord record) {
		save(record);
		long now = record.createdAt().toEpochMilli();
		this.redis.opsForZSet().add(this.indexKey, record.id(), now);
		this.redis.opsForZSet().removeRange(this.indexKey, 0, -(this.history + 1));
		this.redis.opsForZSet().removeRangeByScore(this.indexKey, Double.NEGATIVE_INFINITY, now - this.ttl.toMillis());
		this.redis.expire(this.indexKey, this.ttl);
	}

	/** Lists it again if a restarted Redis lost the list; NX keeps a run's place. */
	void save(RunRecord record) {
		byte[] key = recordKey(record.id()).getBytes(StandardCharsets.UTF_8);
		byte[] value = this.json.writeValueAsBytes(record);
		// SETEX, not SET: INFO commandstats tells records from the SETs a run measures.
		this.redis.execute((RedisCallback<Boolean>) (connection) -> connection.stringCommands()
			.setEx(key, this.ttl.toSeconds(), value));
		if (Boolean.TRUE.equals(
				this.redis.opsForZSet().addIfAbsent(this.indexKey, record.id(), record.createdAt().toEpochMilli()))) {
			this.redis.expire(this.indexKey, this.ttl);
		}
	}

	Optional<RunRecord> find(String id) {
		if (!isId(id)) {
			return Optional.empty();
		}
		// Any instance may write the flag; only the one running the job, the record.
		return Optional.ofNullable(parse(id, this.redis.opsForValue().get(recordKey(id))))
			.map((record) -> (!record.cancelRequested() && cancelRequested(id)) ? record.withCancelRequested()
					: record);
	}

	/** Newest first; ids whose record expired are dropped from the index. */
	List<RunRecord> recent(int limit) {
		Set<String> ids = this.redis.opsForZSet().reverseRange(this.indexKey, 0, limit - 1);
		if (ids == null || ids.isEmpty()) {
			return List.of();
		}
		List<String> idList = List.copyOf(ids);
		List<String> values = this.redis.opsForValue().multiGet(idList.stream().map(this::recordKey).toList());
		List<RunRecord> records = new ArrayList<>();
		List<String> gone = new ArrayList<>();
		for (int i = 0; i < idList.size(); i++) {
			RunRecord record = parse(idList.get(i), (values != null) ? values.get(i) : null);
			if (record != null) {
				records.add(record);
			}
			else {
				gone.add(idList.get(i));
			}
		}
		if (!gone.isEmpty()) {
			this.redis.opsForZSet().remove(this.indexKey, gone.toArray());
		}
		return records;
	}

	void requestCancel(String id) {
		this.redis.opsForValue().set(cancelKey(id), Instant.now().toString(), this.ttl);
	}

	boolean cancelRequested(String id) {
		return Boolean.TRUE.equals(this.redis.hasKey(cancelKey(id)));
	}

	/**
	 * What this instance measures on, for each record. A job reads the version at each
	 * submit, as Redis may be upgraded; a GET run takes the last one read, so a stuck
	 * Redis costs its caller one command timeout, not two.
	 */
	RunRecord.Environment environment(boolean fresh) {
		String version = this.lastVersion.get();
		if (fresh || version == null) {
			try {
				version = redisVersion();
				this.lastVersion.set(version);
			}
			catch (RuntimeException ex) {
				version = null;
			}
		}
		Runtime.Version jvm = Runtime.version();
		return new RunRecord.Environment(version, this.topology.kind() + " " + String.join(", ", this.topology.nodes()),
				System.getProperty("java.vm.name") + " " + jvm, Runtime.getRuntime().availableProcessors(),
				this.pipeline.flushPolicy().toString(), this.pipeline.writes().label(), this.maxConcurrent);
	}

	/** A cluster answers per node, under keys ending the same way. */
	private @Nullable String redisVersion() {
		Properties info = this.redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("server"));
		if (info == null) {
			return null;
		}
		return info.stringPropertyNames()
			.stream()
			.filter((key) -> key.endsWith("redis_version"))
			.map(info::getProperty)
			.distinct()
			.sorted()
			.reduce((a, b) -> a + ", " + b)
			.orElse(null);
	}

	private @Nullable RunRecord parse(String id, @Nullable String text) {
		if (text == null) {
			return null;
		}
		try {
			return this.json.readValue(text, RunRecord.class).seenAt(Instant.now(), this.staleAfter);
		}
		catch (JacksonException ex) {
			log.warn("Ignoring unreadable run record {}: {}", recordKey(id), ex.getOriginalMessage());
			return null;
		}
	}

}
