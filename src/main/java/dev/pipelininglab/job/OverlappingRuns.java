package dev.pipelininglab.job;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The runs beside one: two runs measuring at once share the Redis, and on one instance
 * its CPU too, so each record says so. Other instances' runs sharing the Redis and prefix
 * are known from {@link RunStore}'s sets: one live as this one starts, or one created
 * before it ends (each of the two then sees the other). A dead instance's run stays live
 * until a sweep ends it, so it may count for up to {@code stale-after}. Reading them is a
 * note on the record, not worth failing a run for.
 */
@Component
class OverlappingRuns {

	private static final Logger log = LoggerFactory.getLogger(OverlappingRuns.class);

	private final StringRedisTemplate redis;

	private final RunStore store;

	/** When each run watched began measuring, until it is checked. */
	private final Map<String, Instant> since = new ConcurrentHashMap<>();

	OverlappingRuns(StringRedisTemplate redis, RunStore store) {
		this.redis = redis;
		this.store = store;
	}

	/**
	 * As {@code started} begins measuring; a GET run's Redis reads wait for its record.
	 */
	void started(ActiveRun started, Collection<ActiveRun> active) {
		for (ActiveRun other : active) {
			if (other != started && other.record().status() == RunStatus.RUNNING) {
				other.markOverlapped();
				started.markOverlapped();
			}
		}
		if (started.recorded() && !started.waited()) {
			watch(started);
		}
	}

	/** Once its record is in Redis. */
	void watch(ActiveRun run) {
		this.since.put(run.id, Instant.now());
		if (others(run.id, () -> this.redis.opsForZSet().range(this.store.liveKey, 0, -1))) {
			run.markOverlapped();
		}
	}

	/**
	 * Before the figures are merged or the final record written; later calls ask nothing.
	 */
	void check(ActiveRun run) {
		Instant from = this.since.remove(run.id);
		if (from != null && others(run.id, () -> this.redis.opsForZSet()
			.rangeByScore(this.store.indexKey, from.toEpochMilli(), Double.POSITIVE_INFINITY))) {
			run.markOverlapped();
		}
	}

	void forget(ActiveRun run) {
		this.since.remove(run.id);
	}

	private static boolean others(String id, Supplier<@Nullable Set<String>> ids) {
		try {
			Set<String> read = ids.get();
			return read != null && read.stream().anyMatch((other) -> !other.equals(id));
		}
		catch (RuntimeException ex) {
			log.debug("Could not read the other runs: {}", ex.toString());
			return false;
		}
	}

}
