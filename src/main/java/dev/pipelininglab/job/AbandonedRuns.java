package dev.pipelininglab.job;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.RunService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * On Spring's scheduler, what keeps a dead instance's runs from leaving keys for ever:
 * this instance's heartbeat ({@link RunExecutor#heartbeat}), and on every instance, every
 * {@code lab.jobs.sweep-interval} (the first one that long after start), the sweep. A run
 * still QUEUED or RUNNING whose record is older than {@code lab.jobs.stale-after} belongs
 * to an instance that died: every key its record says it may write gets the expiry a run
 * leaves ({@code EXPIRE ... NX} from Redis 7 on, so no {@code ttl} a run set is changed;
 * plain EXPIRE before), then the record says FAILED (abandoned) and leaves the live runs,
 * so it is swept once.
 */
@Component
class AbandonedRuns implements SchedulingConfigurer {

	private static final Logger log = LoggerFactory.getLogger(AbandonedRuns.class);

	private final RunStore store;

	private final RunExecutor executor;

	private final RunEnvironment environment;

	private final RunService runs;

	private final JobProperties settings;

	private final String prefix;

	private final long maxItems;

	private final FleetRuns fleet;

	/** So an outage is logged once. */
	private volatile boolean failing;

	AbandonedRuns(RunStore store, RunExecutor executor, RunEnvironment environment, RunService runs,
			JobProperties settings, KeySpace keys, LimitProperties limits, FleetRuns fleet) {
		this.store = store;
		this.executor = executor;
		this.environment = environment;
		this.runs = runs;
		this.settings = settings;
		this.prefix = keys.prefix() + ":";
		this.fleet = fleet;
		this.maxItems = limits.maxCount();
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		Duration beat = this.settings.heartbeat();
		tasks.addFixedDelayTask(new FixedDelayTask(this.executor::heartbeat, beat, beat));
		tasks.addFixedDelayTask(
				new FixedDelayTask(this::sweep, this.settings.sweepInterval(), this.settings.sweepInterval()));
	}

	void sweep() {
		try {
			Instant now = Instant.now();
			for (RunRecord record : this.store.live()) {
				RunRecord seen = record.seenAt(now, this.settings.staleAfter());
				// This instance lives: its own runs only missed a heartbeat.
				if (seen != record && !record.instance().equals(this.fleet.instance())) {
					abandon(record, seen);
				}
			}
			// A member still writing for a dead leader would outlive this sweep's expiry.
			this.fleet.stopOrphans((run) -> this.store.find(run)
				.map((leader) -> leader.status().terminal() || leader.seenAt(now, this.settings.staleAfter()) != leader)
				.orElse(true));
			this.store.trimIndex();
			this.failing = false;
		}
		catch (RuntimeException ex) {
			if (!this.failing) {
				log.warn("Cannot sweep the runs of instances that died: {}", ex.getMessage());
			}
			this.failing = true;
		}
	}

	private void abandon(RunRecord record, RunRecord failed) {
		List<KeySpace.Range> writes = Objects.requireNonNullElse(record.writes(), List.<KeySpace.Range>of())
			.stream()
			.filter(this::ours)
			.toList();
		this.runs.expireAbandoned(writes, keepsExpiries());
		this.store.save(failed);
		log.info("Run {} of {} stopped being updated at {}: the keys it may have written {} now expire", record.id(),
				record.instance(), record.updatedAt(), writes);
	}

	/**
	 * A record is text anyone with the Redis may write: only the lab's keys, in bounds.
	 */
	private boolean ours(KeySpace.Range range) {
		Long to = range.to();
		return range.key().startsWith(this.prefix) && (to == null || to <= this.maxItems);
	}

	/** EXPIRE's NX came with Redis 7; every node must have it. */
	private boolean keepsExpiries() {
		String versions = this.environment.of(false).redisVersion();
		if (versions == null) {
			throw new IllegalStateException("Redis did not say its version");
		}
		return Stream.of(versions.split(", ")).allMatch((version) -> Integer.parseInt(version.split("\\.")[0]) >= 7);
	}

}
