package dev.pipelininglab.job;

import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.NestedExceptionUtils;

/**
 * Writes this instance's job records to Redis, on a ticker thread so no write lands
 * between the batches being timed, and remembers how its latest jobs ended, even when
 * Redis lost or refused their final records.
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

	/** Made on start: test contexts are paused and started again. */
	private volatile @Nullable ScheduledExecutorService ticker;

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
				this.store.create(job.record());
				job.recorded = true;
			}
			catch (RuntimeException ex) {
				log.debug("Cannot record run {}: {}", job.id, ex.getMessage());
			}
		});
	}

	/** Only over a record that was written. */
	void saveLater(Job job, @Nullable RunRecord record) {
		onTicker(() -> save(job.recorded ? record : null));
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
