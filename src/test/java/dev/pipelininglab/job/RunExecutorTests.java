package dev.pipelininglab.job;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.PipeliningLabApplication;
import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Specs;
import dev.pipelininglab.run.Variant;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Jobs on a real Redis: their life from QUEUED to a final status, progress, cancellation
 * between batches (also from another instance), the bound on concurrent runs, records
 * that outlive the instance that wrote them, the sweep of those whose instance died, and
 * a graceful shutdown that records running jobs as cancelled.
 */
@SpringBootTest(properties = { "lab.admission.max-concurrent=1", "lab.jobs.progress-interval=50ms",
		"lab.jobs.heartbeat=100ms", "lab.jobs.stale-after=5s", "lab.jobs.sweep-interval=500ms",
		"lab.fleet.secret=" + RunExecutorTests.SECRET })
@SharedRedis
@SlowTest
class RunExecutorTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	static final String SECRET = "the instances' shared secret, for tests only";

	@Autowired
	RunExecutor jobs;

	@Autowired
	RunStore store;

	@Autowired
	StringRedisTemplate redis;

	@Autowired
	KeySpace keys;

	@Autowired
	MeterRegistry meters;

	@Autowired
	StandaloneRedis server;

	@BeforeEach
	void startEmpty() {
		this.server.flushAll();
	}

	/**
	 * Other test classes share this Redis: no job of ours may still be writing when they
	 * start.
	 */
	@AfterEach
	void noJobLeftRunning() {
		this.jobs.recent(100).runs().stream().filter((run) -> !run.status().terminal()).forEach((run) -> {
			try {
				this.jobs.cancel(run.id());
			}
			catch (ProblemException ex) {
				// finished meanwhile
				if (ex.type() != ProblemType.RUN_FINISHED) {
					throw ex;
				}
			}
		});
		await().atMost(WAIT).until(() -> this.jobs.active() == 0);
	}

	@Test
	void jobGoesFromQueuedThroughRunningToDoneWithResultsAndFullProgress() {
		RunRecord queued = this.jobs.submit(RunPlan.single(spec(Operation.SET, Mode.PIPELINED, 60_000, 100)));
		assertThat(queued.status()).isEqualTo(RunStatus.QUEUED);
		assertThat(queued.progress().batchesDone()).isZero();
		assertThat(queued.request().operation()).isEqualTo("set");
		assertThat(queued.request().mode()).isEqualTo("pipelined");
		// Its items, and the warm-up's (the test configuration's 1,000).
		assertThat(queued.writes()).containsExactly(this.keys.range(0, 60_000), this.keys.warmup().range(0, 1000));

		List<RunRecord> seen = follow(queued.id());
		RunRecord done = seen.get(seen.size() - 1);
		assertThat(seen).extracting(RunRecord::status).contains(RunStatus.RUNNING).last().isEqualTo(RunStatus.DONE);
		assertThat(seen).extracting((run) -> run.progress().batchesDone()).isSorted();
		assertThat(done.progress().batchesDone()).isEqualTo(600).isEqualTo(done.progress().batchesTotal());
		assertThat(done.progress().percent()).isEqualTo(100.0);
		assertThat(done.startedAt()).isAfterOrEqualTo(done.createdAt());
		assertThat(done.finishedAt()).isAfterOrEqualTo(done.startedAt());
		assertThat(done.results()).singleElement().satisfies((result) -> {
			assertThat(result.counts().verified()).isEqualTo(60_000);
			assertThat(result.ran().batches()).isEqualTo(600);
			assertThat(result.timing().opsPerSecond()).isPositive();
		});

		// The record lives under the demo prefix with a TTL of at most a day, and the
		// index lists it.
		Long ttl = this.redis.getExpire(this.keys.prefix() + ":run:" + done.id());
		assertThat(ttl).isBetween(Duration.ofHours(23).toSeconds(), Duration.ofHours(24).toSeconds());
		assertThat(this.redis.opsForZSet().score(this.keys.prefix() + ":runs", done.id())).isNotNull();
		assertThat(this.redis.getExpire(this.keys.prefix() + ":runs")).isPositive();
		// Its final record goes to Redis after this instance shows it.
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(this.redis.opsForZSet().score(this.keys.prefix() + ":runs:live", done.id()))
				.isNull());

		Timer timer = this.meters.find("lab.run.pass")
			.tags("operation", "set", "mode", "pipelined", "variant", "pipelined-flush-on-close")
			.timer();
		assertThat(timer).isNotNull();
		assertThat(timer.count()).isPositive();
	}

	@Test
	void comparisonAndSweepJobsKeepEveryResult() {
		RunSpec base = spec(Operation.GET, Mode.LOOP, 2000, 500);
		RunRecord compare = this.jobs.submit(RunPlan.compare(base,
				List.of(Variant.of(Mode.LOOP), Variant.of(Mode.PIPELINED), Variant.of(Mode.MULTI_KEY)), false));
		RunRecord comparison = last(follow(compare.id()));
		assertThat(comparison.status()).isEqualTo(RunStatus.DONE);
		assertThat(comparison.results()).extracting((r) -> r.ran().variant())
			.containsExactly("loop", "pipelined-flush-on-close", "multi-key");
		assertThat(comparison.results()).extracting((r) -> r.counts().hits()).containsOnly(2000L);
		assertThat(comparison.results().get(0).speedup()).isEqualTo(1.0);
		assertThat(comparison.skipped()).isEmpty();

		RunRecord sweep = last(follow(this.jobs.submit(RunPlan.sweep(base, List.of(10, 100, 1000))).id()));
		assertThat(sweep.status()).isEqualTo(RunStatus.DONE);
		assertThat(sweep.results()).extracting((r) -> r.ran().batchSize()).containsExactly(10, 100, 1000);
		assertThat(sweep.progress().batchesDone()).isEqualTo(200 + 20 + 2);
	}

	/**
	 * With the instances' secret set, a cancel flag reaches a run through Redis only as
	 * an instance signed it: one written by any other client of the Redis stops nothing.
	 */
	@Test
	void aCancelFlagWrittenWithoutTheSecretStopsNothing() {
		RunRecord run = this.jobs.submit(RunPlan.single(spec(Operation.SET, Mode.LOOP, 1_000_000, 100)));
		await().atMost(WAIT).until(() -> this.jobs.get(run.id()).status() == RunStatus.RUNNING);
		this.redis.opsForValue().set(this.keys.prefix() + ":run:" + run.id() + ":cancel", "cancel it");
		// Ten heartbeats, each of which looks for a cancel request.
		await().during(Duration.ofSeconds(1))
			.atMost(Duration.ofSeconds(3))
			.until(() -> this.jobs.get(run.id()).status() == RunStatus.RUNNING);
		assertThat(this.jobs.cancel(run.id()).cancelRequested()).isTrue();
		assertThat(await().atMost(WAIT)
			.until(() -> this.jobs.get(run.id()), (record) -> record.status().terminal())
			.status()).isEqualTo(RunStatus.CANCELLED);
	}

	@Test
	void anotherInstanceSeesTheSameRunsCancelsThemAndShutsDownGracefully() {
		try (ConfigurableApplicationContext other = anotherInstance()) {
			RunExecutor otherJobs = other.getBean(RunExecutor.class);

			// A long loop here, cancelled from the other instance: the request travels
			// through Redis.
			RunRecord here = this.jobs.submit(RunPlan.single(spec(Operation.SET, Mode.LOOP, 1_000_000, 100)));
			await().atMost(WAIT)
				.until(() -> otherJobs.find(here.id())
					.filter((run) -> run.status() == RunStatus.RUNNING && run.progress().batchesDone() > 0)
					.isPresent());
			assertThat(otherJobs.cancel(here.id()).cancelRequested()).isTrue();
			RunRecord cancelled = await().atMost(WAIT)
				.until(() -> this.jobs.get(here.id()), (run) -> run.status().terminal());
			assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
			assertThat(cancelled.cancelRequested()).isTrue();
			assertThat(cancelled.problem()).isNull();
			assertThat(cancelled.results()).isNull();
			assertThat(cancelled.progress().batchesDone()).isPositive().isLessThan(cancelled.progress().batchesTotal());
			assertThatExceptionOfType(ProblemException.class).isThrownBy(() -> otherJobs.cancel(here.id()))
				.extracting(ProblemException::type)
				.isEqualTo(ProblemType.RUN_FINISHED);

			// A long loop there, whose instance then stops: the job ends between batches
			// and says why.
			RunRecord there = otherJobs.submit(RunPlan.single(spec(Operation.SET, Mode.LOOP, 1_000_000, 100)));
			await().atMost(WAIT)
				.until(() -> this.jobs.find(there.id()).filter((run) -> run.status() == RunStatus.RUNNING).isPresent());
			long closing = System.nanoTime();
			other.close();
			assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(Duration.ofSeconds(15));
			RunRecord shutDown = this.jobs.get(there.id());
			assertThat(shutDown.status()).isEqualTo(RunStatus.CANCELLED);
			assertThat(shutDown.cancelRequested()).isFalse();
			assertThat(shutDown.problem().type()).isEqualTo("urn:pipelining-lab:problem:instance-shutdown");

			assertThat(this.jobs.recent(10).runs()).extracting(RunRecord::id).containsExactly(there.id(), here.id());
			assertThat(this.jobs.recent(10).runs()).extracting(RunRecord::instance).doesNotHaveDuplicates();
		}
	}

	@Test
	void runsBeyondTheBoundAreTurnedAwayUntilASlotFrees() {
		RunRecord running = this.jobs.submit(RunPlan.single(spec(Operation.SET, Mode.LOOP, 1_000_000, 100)));
		await().atMost(WAIT).until(() -> this.jobs.get(running.id()).progress().batchesDone() >= 100);
		assertThatExceptionOfType(JobsFullException.class)
			.isThrownBy(() -> this.jobs.submit(RunPlan.single(spec(Operation.PING, Mode.PIPELINED, 10, 10))))
			.satisfies((ex) -> assertThat(ex.retryAfter()).isBetween(Duration.ofMillis(1), Duration.ofMinutes(5)));
		this.jobs.cancel(running.id());
		await().atMost(WAIT).until(() -> this.jobs.active() == 0);
		RunRecord next = this.jobs.submit(RunPlan.single(spec(Operation.PING, Mode.PIPELINED, 10, 10)));
		assertThat(last(follow(next.id())).status()).isEqualTo(RunStatus.DONE);
	}

	/**
	 * A client that sees its run end and sends the next one at once must not be turned
	 * away: the slot is free before the final record shows. The gap, if any, is as long
	 * as the final record's write to Redis, so the record is read in a tight loop, many
	 * times.
	 */
	@Test
	void nextRunIsAdmittedAsSoonAsTheLastOnesFinalRecordShows() {
		RunRecord run = this.jobs.submit(RunPlan.single(spec(Operation.PING, Mode.PIPELINED, 10, 10)));
		for (int i = 0; i < 100; i++) {
			String id = run.id();
			// A short poll interval, not a spin: on two cores a spin would take the
			// worker's core.
			await("run " + id + " ends").atMost(WAIT)
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofNanos(100_000))
				.until(() -> this.jobs.get(id).status().terminal());
			run = this.jobs.submit(RunPlan.single(spec(Operation.PING, Mode.PIPELINED, 10, 10)));
		}
		assertThat(last(follow(run.id())).status()).isEqualTo(RunStatus.DONE);
	}

	@Test
	void stoppedJobsTurnRunsAwayAndRunAgainOnceStarted() {
		// The test framework pauses cached contexts (stop) and resumes them (start)
		// between test classes.
		this.jobs.stop();
		assertThat(this.jobs.isRunning()).isFalse();
		assertThatExceptionOfType(JobsFullException.class)
			.isThrownBy(() -> this.jobs.submit(RunPlan.single(spec(Operation.PING, Mode.PIPELINED, 10, 10))));
		this.jobs.start();
		RunRecord next = this.jobs.submit(RunPlan.single(spec(Operation.PING, Mode.PIPELINED, 10, 10)));
		assertThat(last(follow(next.id())).status()).isEqualTo(RunStatus.DONE);
	}

	@Test
	void redisErrorFailsTheJobWithTheProblemAGetEndpointWouldAnswer() {
		this.redis.opsForValue().set(this.keys.listKey(), "not a list");
		RunRecord failed = last(
				follow(this.jobs.submit(RunPlan.single(spec(Operation.RPOP, Mode.PIPELINED, 100, 10))).id()));
		assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
		assertThat(failed.problem().type()).isEqualTo("urn:pipelining-lab:problem:redis-error-reply");
		assertThat(failed.problem().detail()).contains("WRONGTYPE");
		assertThat(failed.results()).isNull();
	}

	@Test
	void recordLeftRunningByAnInstanceThatDiedIsSeenAsAbandoned() {
		Instant longAgo = Instant.now().minus(Duration.ofMinutes(10));
		RunRecord.Request request = new RunRecord.Request(RunKind.SINGLE, "set", "loop", 100, 10, 0, null, null, null,
				null, null, null, null, null, 1, "lettuce", "shared", null, null, null, null, null, null, null);
		RunRecord orphan = new RunRecord("5e2c1d55-0000-4000-8000-000000000001", RunKind.SINGLE, RunStatus.RUNNING,
				request, new RunRecord.Progress(3, 10, 30.0), false, "gone:1", longAgo, longAgo, null, longAgo, null,
				null, null, null, null, null, null, null);
		this.store.create(orphan);

		RunRecord seen = this.jobs.get(orphan.id());
		assertThat(seen.status()).isEqualTo(RunStatus.FAILED);
		assertThat(seen.problem().type()).isEqualTo("urn:pipelining-lab:problem:run-abandoned");
		assertThat(seen.progress().batchesDone()).isEqualTo(3);
		assertThat(this.jobs.recent(5).runs()).singleElement()
			.extracting(RunRecord::status)
			.isEqualTo(RunStatus.FAILED);
		assertThatExceptionOfType(ProblemException.class).isThrownBy(() -> this.jobs.cancel(orphan.id()))
			.extracting(ProblemException::type)
			.isEqualTo(ProblemType.RUN_FINISHED);
	}

	/**
	 * A live instance's sweep: every key the dead run's record names gets the lab's
	 * expiry, but a key that has one keeps it (a run's {@code ttl}: EXPIRE NX), nothing
	 * outside the ranges or the prefix is touched, and the record says FAILED.
	 */
	@Test
	void aSweepExpiresWhatAnAbandonedRunMayHaveWrittenAndKeepsTheTtlARunSet() {
		for (int i = 0; i < 20; i++) {
			if (i < 10) {
				this.redis.opsForValue().set(this.keys.key(i), "with a ttl", Duration.ofSeconds(600));
			}
			else {
				this.redis.opsForValue().set(this.keys.key(i), "without");
			}
		}
		this.redis.opsForHash().put(this.keys.hashKey(), "field:0", "without");
		this.redis.opsForValue().set(this.keys.key(20), "beyond the range");
		this.redis.opsForValue().set("someone-else:key:3", "theirs");
		Instant longAgo = Instant.now().minus(Duration.ofMinutes(10));
		RunRecord.Request request = new RunRecord.Request(RunKind.SINGLE, "set", "pipelined", 20, 10, 0, null, null,
				null, null, null, null, null, null, 1, "lettuce", "pooled", null, null, null, null, null, null, null);
		RunRecord orphan = new RunRecord("5e2c1d55-0000-4000-8000-000000000003", RunKind.SINGLE, RunStatus.RUNNING,
				request, new RunRecord.Progress(1, 2, 50.0), false, "gone:2", longAgo, longAgo, null, longAgo, null,
				null, null, null, null, null, null, List.of(this.keys.range(0, 20),
						KeySpace.Range.of(this.keys.hashKey()), new KeySpace.Range("someone-else:key:<i>", 0L, 10L)));
		this.store.create(orphan);

		String key = this.keys.prefix() + ":run:" + orphan.id();
		await().atMost(WAIT)
			.until(() -> JsonPath.<String>read(this.redis.opsForValue().get(key), "$.status"), "FAILED"::equals);
		assertThat(JsonPath.<String>read(this.redis.opsForValue().get(key), "$.problem.type"))
			.isEqualTo("urn:pipelining-lab:problem:run-abandoned");
		for (int i = 0; i < 20; i++) {
			assertThat(this.redis.getExpire(this.keys.key(i))).as(this.keys.key(i))
				.isBetween((i < 10) ? 590L : 3590L, (i < 10) ? 600L : 3600L);
		}
		assertThat(this.redis.getExpire(this.keys.hashKey())).isBetween(3590L, 3600L);
		assertThat(this.redis.getExpire(this.keys.key(20))).isEqualTo(-1);
		assertThat(this.redis.getExpire("someone-else:key:3")).isEqualTo(-1);
		assertThat(this.redis.opsForZSet().score(this.keys.prefix() + ":runs:live", orphan.id())).isNull();
	}

	@Test
	void listIsNewestFirstAndForgetsRecordsThatAreGone() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			String id = this.jobs.submit(RunPlan.single(spec(Operation.PING, Mode.PIPELINED, 100, 10))).id();
			follow(id);
			ids.add(id);
		}
		assertThat(this.jobs.recent(10).runs()).extracting(RunRecord::id)
			.containsExactly(ids.get(2), ids.get(1), ids.get(0));
		assertThat(this.jobs.recent(2).runs()).extracting(RunRecord::id).containsExactly(ids.get(2), ids.get(1));

		this.redis.delete(this.keys.prefix() + ":run:" + ids.get(1));
		assertThat(this.jobs.recent(10).runs()).extracting(RunRecord::id).containsExactly(ids.get(2), ids.get(0));
		assertThat(this.redis.opsForZSet().size(this.keys.prefix() + ":runs")).isEqualTo(2);
		// The instance that ran it still knows how it ended, for a page that follows it.
		assertThat(this.jobs.find(ids.get(1))).get().extracting(RunRecord::status).isEqualTo(RunStatus.DONE);
		assertThat(this.jobs.find("not-an-id")).isEmpty();
		assertThat(this.jobs.find("5e2c1d55-0000-4000-8000-00000000ffff")).isEmpty();
		assertThatExceptionOfType(ProblemException.class).isThrownBy(() -> this.jobs.cancel(ids.get(1)))
			.extracting(ProblemException::type)
			.isEqualTo(ProblemType.RUN_FINISHED);
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> this.jobs.cancel("5e2c1d55-0000-4000-8000-00000000ffff"))
			.extracting(ProblemException::type)
			.isEqualTo(ProblemType.RUN_NOT_FOUND);
	}

	/**
	 * Reads the record every few milliseconds until it is final, and returns every state
	 * seen.
	 */
	private List<RunRecord> follow(String id) {
		List<RunRecord> seen = new ArrayList<>();
		await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
			RunRecord run = this.jobs.get(id);
			seen.add(run);
			return run.status().terminal();
		});
		return seen;
	}

	private static RunRecord last(List<RunRecord> seen) {
		return seen.get(seen.size() - 1);
	}

	private static RunSpec spec(Operation operation, Mode mode, long count, int batchSize) {
		return Specs.of(operation, mode, FlushPolicy.FLUSH_ON_CLOSE, count, batchSize, 3);
	}

	/** A second app instance on the same Redis, as behind a load balancer. */
	private ConfigurableApplicationContext anotherInstance() {
		Map<String, Object> properties = new java.util.HashMap<>(this.server.springProperties());
		properties.put("lab.local-redis.enabled", "false");
		properties.put("lab.jobs.progress-interval", "50ms");
		properties.put("lab.fleet.secret", SECRET);
		properties.put("spring.main.banner-mode", "off");
		return new SpringApplicationBuilder(PipeliningLabApplication.class).web(WebApplicationType.NONE)
			.properties(properties)
			.run();
	}

}
