package dev.pipelininglab.job;

import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.NestedExceptionUtils;

/**
 * Writes this instance's job records to Redis and remembers how its latest jobs ended,
 * even when Redis lost or refused their final records.
 */
class JobRecords {

	private static final Logger log = LoggerFactory.getLogger(RunJobs.class);

	private final RunStore store;

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

	JobRecords(RunStore store, JobProperties settings) {
		this.store = store;
		this.settings = settings;
		int kept = settings.history();
		this.ended = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, false) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, RunRecord> eldest) {
				return size() > kept;
			}

		});
	}

	void ended(RunRecord record) {
		this.ended.put(record.id(), record);
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

	/** A cancel requested on another instance reaches this one through Redis. */
	void pickUpCancel(Job job) {
		if (!job.cancelRequested && this.store.cancelRequested(job.id)) {
			job.cancelRequested = true;
		}
	}

	/** Callers hold the job's lock: writes land in order, none after the final one. */
	void save(@Nullable RunRecord record) {
		if (record == null) {
			return;
		}
		try {
			this.store.save(record);
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
				this.store.save(end);
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
