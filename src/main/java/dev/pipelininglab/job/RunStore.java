package dev.pipelininglab.job;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.Reconnects;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.NestedExceptionUtils;
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
 * <p>
 * This instance's records are written on a ticker thread, so no write lands between the
 * batches being timed, and how its latest jobs ended is remembered, even when Redis lost
 * or refused their final records.
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

	private final JobProperties settings;

	private final Topology topology;

	private final PipelineProperties pipeline;

	private final AtomicReference<@Nullable String> lastVersion = new AtomicReference<>();

	/** Redis may lose a final record (restarted, or down): pages still see an end. */
	private final Map<String, RunRecord> ended;

	/**
	 * Final records Redis refused (full, or away), written again every progress interval,
	 * so a failed run shows FAILED as soon as Redis accepts writes, not RUNNING.
	 */
	private final Map<String, RunRecord> unsavedEnds = new ConcurrentHashMap<>();

	/** So an outage is logged once. */
	private volatile boolean progressFailing;

	/** Made on start: test contexts are paused and started again. */
	private volatile @Nullable ScheduledExecutorService ticker;

	private final Reconnects reconnects;

	RunStore(StringRedisTemplate redis, JsonMapper json, KeySpace keys, JobProperties settings, Topology topology,
			PipelineProperties pipeline, Reconnects reconnects) {
		this.redis = redis;
		this.reconnects = reconnects;
		// Records are read leniently: a newer instance may have added fields.
		this.json = json.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
		this.runStem = keys.prefix() + ":run:";
		this.indexKey = keys.prefix() + ":runs";
		this.settings = settings;
		this.topology = topology;
		this.pipeline = pipeline;
		this.ended = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, false) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, RunRecord> eldest) {
				return size() > settings.history();
			}

		});
	}

	String recordKey(String id) {
		return this.runStem + id;
	}

	String cancelKey(String id) {
		return this.runStem + id + ":cancel";
	}

	/** Drops index entries past the history length or the record TTL. */
	void create(RunRecord record) {
		setRecord(record);
		long now = record.createdAt().toEpochMilli();
		this.redis.opsForZSet().add(this.indexKey, record.id(), now);
		this.redis.opsForZSet().removeRange(this.indexKey, 0, -(this.settings.history() + 1));
		this.redis.opsForZSet()
			.removeRangeByScore(this.indexKey, Double.NEGATIVE_INFINITY, now - this.settings.recordTtl().toMillis());
		this.redis.expire(this.indexKey, this.settings.recordTtl());
	}

	/** Lists it again if a restarted Redis lost the list; NX keeps a run's place. */
	private void write(RunRecord record) {
		setRecord(record);
		if (Boolean.TRUE.equals(
				this.redis.opsForZSet().addIfAbsent(this.indexKey, record.id(), record.createdAt().toEpochMilli()))) {
			this.redis.expire(this.indexKey, this.settings.recordTtl());
		}
	}

	// SETEX, not SET: INFO commandstats tells records from the SETs a run measures.
	private void setRecord(RunRecord record) {
		byte[] key = recordKey(record.id()).getBytes(StandardCharsets.UTF_8);
		byte[] value = this.json.writeValueAsBytes(record);
		this.redis.execute((RedisCallback<Boolean>) (connection) -> connection.stringCommands()
			.setEx(key, this.settings.recordTtl().toSeconds(), value));
	}

	Optional<RunRecord> find(String id) {
		if (!ID.matcher(id).matches()) {
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
		this.redis.opsForValue().set(cancelKey(id), Instant.now().toString(), this.settings.recordTtl());
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
		return new RunRecord.Environment(version, this.topology.kind() + " " + String.join(", ", this.topology.nodes()),
				System.getProperty("java.vm.name") + " " + Runtime.version(),
				Runtime.getRuntime().availableProcessors(), this.pipeline.flushPolicy().toString(),
				this.pipeline.writes().label(), this.settings.maxConcurrent());
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
			return this.json.readValue(text, RunRecord.class).seenAt(Instant.now(), this.settings.staleAfter());
		}
		catch (JacksonException ex) {
			log.warn("Ignoring unreadable run record {}: {}", recordKey(id), ex.getOriginalMessage());
			return null;
		}
	}

	/** Writes the progress of {@code jobs} every progress interval. */
	void start(Supplier<Collection<Job>> jobs) {
		ScheduledExecutorService progress = Executors
			.newSingleThreadScheduledExecutor(RunJobs.daemonThreads("run-progress-"));
		this.ticker = progress;
		long interval = this.settings.progressInterval().toMillis();
		progress.scheduleWithFixedDelay(() -> writeProgress(jobs.get()), interval, interval, TimeUnit.MILLISECONDS);
	}

	void stop() {
		ScheduledExecutorService progress = this.ticker;
		if (progress != null) {
			progress.shutdownNow();
		}
	}

	/** A GET run's records go on the ticker, so a stuck Redis never delays its answer. */
	void createLater(Job job) {
		onTicker(() -> {
			try {
				create(job.record());
				job.recorded = true;
			}
			catch (RuntimeException ex) {
				log.debug("Cannot record run {}: {}", job.id, ex.getMessage());
			}
		});
	}

	/** In order on the ticker thread, or here when it is gone (a closing app). */
	private void onTicker(Runnable write) {
		ScheduledExecutorService progress = this.ticker;
		try {
			if (progress != null) {
				progress.execute(write);
				return;
			}
		}
		catch (RejectedExecutionException ex) {
			// Shut down: write it here.
		}
		write.run();
	}

	/**
	 * Remembers how {@code job} ended and writes it: a GET run's on the ticker, and only
	 * over a record that was written. Callers hold the job's lock.
	 */
	void ended(Job job, @Nullable RunRecord record) {
		if (record == null) {
			return;
		}
		this.ended.put(record.id(), record);
		if (job.waited()) {
			onTicker(() -> save(job.recorded ? record : null));
		}
		else {
			save(record);
		}
	}

	@Nullable RunRecord ended(String id) {
		return this.ended.get(id);
	}

	/** This instance's records, newest first, for when Redis cannot be read. */
	List<RunRecord> local(Collection<Job> active, int limit) {
		Map<String, RunRecord> byId;
		synchronized (this.ended) {
			byId = new LinkedHashMap<>(this.ended);
		}
		active.forEach((job) -> byId.put(job.id, job.record()));
		return byId.values()
			.stream()
			.sorted(Comparator.comparing(RunRecord::createdAt).reversed())
			.limit(limit)
			.toList();
	}

	/**
	 * Also when nothing changed: a fresh {@code updatedAt} tells a live job from one
	 * whose instance died. Picks up cancel requests other instances wrote.
	 */
	void writeProgress(Collection<Job> active) {
		retryUnsavedEnds();
		try {
			for (Job job : active) {
				pickUpCancel(job);
				synchronized (job) {
					save(job.update(null, Instant.now()));
				}
			}
			this.progressFailing = false;
		}
		catch (RuntimeException ex) {
			if (!this.progressFailing) {
				log.warn("Cannot write run progress to Redis: {}", why(ex));
			}
			this.progressFailing = true;
		}
	}

	/**
	 * A cancel requested on another instance reaches this one through Redis. The first
	 * command of every run: a connection still being made is waited for.
	 */
	void pickUpCancel(Job job) {
		if (!job.cancelRequested && this.reconnects.awaiting(() -> cancelRequested(job.id))) {
			job.cancelRequested = true;
		}
	}

	/** Callers hold the job's lock: writes land in order, none after the final one. */
	void save(@Nullable RunRecord record) {
		if (record == null) {
			return;
		}
		try {
			write(record);
		}
		catch (RuntimeException ex) {
			if (!record.status().terminal()) {
				throw ex;
			}
			this.unsavedEnds.put(record.id(), record);
			log.warn("Cannot record the end of run {} ({}) yet, will retry every {} ms: {}", record.id(),
					record.status(), this.settings.progressInterval().toMillis(), why(ex));
		}
	}

	private void retryUnsavedEnds() {
		for (RunRecord end : this.unsavedEnds.values()) {
			try {
				write(end);
				this.unsavedEnds.remove(end.id(), end);
				log.info("Recorded the end of run {} ({}) now that Redis accepts it", end.id(), end.status());
			}
			catch (RuntimeException ex) {
				return;
			}
		}
	}

	/** With the cause when the message only says "Redis exception". */
	private static @Nullable String why(RuntimeException ex) {
		Throwable root = NestedExceptionUtils.getMostSpecificCause(ex);
		String message = ex.getMessage();
		String cause = root.getMessage();
		return (root == ex || cause == null || (message != null && message.contains(cause))) ? message
				: message + ": " + cause;
	}

}
