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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Reconnects;
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
 * everything else: {@code <prefix>:run:<id>} holds the record as JSON (beside it the
 * {@link CancelFlags}), the sorted set {@code <prefix>:runs} orders ids by creation time,
 * and {@code <prefix>:runs:live} holds the ids of runs not yet ended, for the sweep
 * ({@link AbandonedRuns}). Records and the index expire; the set of live runs lasts as
 * long as one of them, and the sweep ends those whose instance died. Each operation
 * touches one key, so the same code works on a cluster.
 * <p>
 * A run costs a few commands: its record and index entries before its first key, its
 * final record, and while it runs one heartbeat every {@code lab.jobs.heartbeat}. How its
 * latest runs ended is remembered here, even when Redis lost or refused their final
 * records.
 */
@Component
class RunStore {

	private static final Logger log = LoggerFactory.getLogger(RunStore.class);

	/** Anything but a UUID cannot name a record and must not reach a key name. */
	private static final Pattern ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	private final String runStem;

	final String indexKey;

	final String liveKey;

	private final CancelFlags cancels;

	private final JobProperties settings;

	/** Redis may lose a final record (restarted, or down): pages still see an end. */
	private final Map<String, RunRecord> ended;

	/**
	 * Final records Redis refused (full, or away), written again every progress interval,
	 * so a failed run shows FAILED as soon as Redis accepts writes, not RUNNING.
	 */
	private final Map<String, RunRecord> unsavedEnds = new ConcurrentHashMap<>();

	/** So an outage is logged once. */
	private volatile boolean progressFailing;

	/** Records created since the index was last trimmed. */
	private volatile boolean created;

	private final Reconnects reconnects;

	RunStore(StringRedisTemplate redis, JsonMapper json, KeySpace keys, JobProperties settings, Reconnects reconnects,
			CancelFlags cancels) {
		this.redis = redis;
		this.cancels = cancels;
		this.reconnects = reconnects;
		// Records are read leniently: a newer instance may have added fields.
		this.json = json.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
		this.runStem = keys.prefix() + ":run:";
		this.indexKey = keys.prefix() + ":runs";
		this.liveKey = this.indexKey + ":live";
		this.settings = settings;
		this.ended = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, false) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, RunRecord> eldest) {
				return size() > settings.history();
			}

		});
	}

	private String recordKey(String id) {
		return this.runStem + id;
	}

	/**
	 * Before the run's first key: the record with what the run may write, listed in the
	 * index and among live runs. The index is trimmed by the sweep, not per run.
	 */
	void create(RunRecord record) {
		// Before the run's first command: a connection still being made is waited for.
		this.reconnects.awaiting(() -> setRecord(record));
		this.redis.opsForZSet().add(this.indexKey, record.id(), record.createdAt().toEpochMilli());
		this.redis.expire(this.indexKey, this.settings.recordTtl());
		this.redis.opsForZSet().add(this.liveKey, record.id(), record.createdAt().toEpochMilli());
		this.created = true;
	}

	// SETEX, not SET: INFO commandstats tells records from the SETs a run measures.
	private @Nullable Boolean setRecord(RunRecord record) {
		byte[] key = recordKey(record.id()).getBytes(StandardCharsets.UTF_8);
		byte[] value = this.json.writeValueAsBytes(record);
		return this.redis.execute((RedisCallback<Boolean>) (connection) -> connection.stringCommands()
			.setEx(key, this.settings.recordTtl().toSeconds(), value));
	}

	/** A final record leaves the live runs. */
	private void write(RunRecord record) {
		setRecord(record);
		if (record.status().terminal()) {
			this.redis.opsForZSet().remove(this.liveKey, record.id());
		}
	}

	Optional<RunRecord> find(String id) {
		if (!ID.matcher(id).matches()) {
			return Optional.empty();
		}
		// Any instance may write the flag; only the one running the job, the record.
		return Optional.ofNullable(this.redis.opsForValue().get(recordKey(id)))
			.map((text) -> read(id, text))
			.map((record) -> record.seenAt(Instant.now(), this.settings.staleAfter()))
			.map((record) -> (!record.cancelRequested() && this.cancels.requested(id)) ? record.withCancelRequested()
					: record);
	}

	/** Newest first; ids whose record expired are dropped from the index. */
	List<RunRecord> recent(int limit) {
		Instant now = Instant.now();
		return records(this.indexKey, this.redis.opsForZSet().reverseRange(this.indexKey, 0, limit - 1),
				(record) -> true)
			.stream()
			.map((record) -> record.seenAt(now, this.settings.staleAfter()))
			.toList();
	}

	/**
	 * The records of runs not yet ended, as stored (none read as abandoned); ids whose
	 * record is gone or final (its instance could not say so) leave the set.
	 */
	List<RunRecord> live() {
		return records(this.liveKey, this.redis.opsForZSet().range(this.liveKey, 0, -1),
				(record) -> !record.status().terminal());
	}

	/** Those of {@code ids} that {@code belongs}; the others leave {@code set}. */
	private List<RunRecord> records(String set, @Nullable Set<String> ids, Predicate<RunRecord> belongs) {
		if (ids == null || ids.isEmpty()) {
			return List.of();
		}
		List<String> idList = List.copyOf(ids);
		List<String> values = this.redis.opsForValue().multiGet(idList.stream().map(this::recordKey).toList());
		List<RunRecord> records = new ArrayList<>();
		List<String> gone = new ArrayList<>();
		for (int i = 0; i < idList.size(); i++) {
			String text = (values != null) ? values.get(i) : null;
			RunRecord record = (text != null) ? read(idList.get(i), text) : null;
			if (record != null && belongs.test(record)) {
				records.add(record);
			}
			else {
				gone.add(idList.get(i));
			}
		}
		if (!gone.isEmpty()) {
			this.redis.opsForZSet().remove(set, gone.toArray());
		}
		return records;
	}

	private @Nullable RunRecord read(String id, String text) {
		try {
			return this.json.readValue(text, RunRecord.class);
		}
		catch (JacksonException ex) {
			log.warn("Ignoring unreadable run record {}: {}", recordKey(id), ex.getOriginalMessage());
			return null;
		}
	}

	/** Remembers how a run ended, for when Redis lost or refused its final record. */
	@Nullable RunRecord ended(@Nullable RunRecord record) {
		if (record != null) {
			this.ended.put(record.id(), record);
		}
		return record;
	}

	@Nullable RunRecord ended(String id) {
		return this.ended.get(id);
	}

	/** This instance's records, newest first, for when Redis cannot be read. */
	List<RunRecord> local(Collection<ActiveRun> active, int limit) {
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
	 * The heartbeat of the runs in Redis: each record older than half a heartbeat is
	 * written again (a fresh {@code updatedAt} tells a live run from one whose instance
	 * died), so a run shorter than that costs no heartbeat; picks up cancel requests
	 * other instances wrote.
	 */
	void writeProgress(Collection<ActiveRun> active) {
		retryUnsavedEnds();
		Instant due = Instant.now().minus(this.settings.heartbeat().dividedBy(2));
		try {
			for (ActiveRun job : active) {
				if (job.recorded() && job.updatedBefore(due)) {
					this.cancels.pickUp(job);
					synchronized (job) {
						save(job.update(null, Instant.now()));
					}
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

	/** Past the history length, once records were created since the last time. */
	void trimIndex() {
		if (this.created) {
			this.created = false;
			this.redis.opsForZSet().removeRange(this.indexKey, 0, -(this.settings.history() + 1));
		}
	}

	/** A run's writes land in order: heartbeats under its lock, none after its end. */
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
					record.status(), this.settings.heartbeat().toMillis(), why(ex));
		}
	}

	/** Listed again when a restarted Redis lost the index; NX keeps a run's place. */
	private void retryUnsavedEnds() {
		for (RunRecord end : this.unsavedEnds.values()) {
			try {
				write(end);
				if (Boolean.TRUE.equals(
						this.redis.opsForZSet().addIfAbsent(this.indexKey, end.id(), end.createdAt().toEpochMilli()))) {
					this.redis.expire(this.indexKey, this.settings.recordTtl());
				}
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
