package dev.pipelininglab.job;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.pipelininglab.ProblemType;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.Recommendation;
import dev.pipelininglab.run.RunResult;
import org.jspecify.annotations.Nullable;

/**
 * A job as kept in Redis and answered by {@code GET /runs/{id}}: small, so polling and
 * listing stay cheap. Field names are a contract with the page, the Postman collection
 * and scripts.
 *
 * @param id the job's id, as in {@code /runs/{id}}
 * @param kind single, compare or sweep
 * @param status where the job is
 * @param request what was asked, defaults filled in
 * @param progress batches sent out of all the job will send
 * @param cancelRequested a {@code DELETE /runs/{id}} arrived; the job stops before its
 * next batch
 * @param instance the app instance that runs the job
 * @param createdAt when the job was accepted
 * @param startedAt when it started running
 * @param finishedAt when it reached a final status
 * @param updatedAt the last time its instance wrote the record; a running job's is at
 * most a progress interval old
 * @param results DONE: one result per run (a single run, each variant of a comparison,
 * each batch size of a sweep)
 * @param skipped DONE comparisons: variants this topology cannot run, and why
 * @param summary DONE runs: a comparison in one sentence, from its figures, and for every
 * kind the loop's ceiling ({@code LoopCeiling})
 * @param problem FAILED: what went wrong, with the problem type a GET endpoint would have
 * answered; CANCELLED by a shutdown rather than a request: that shutdown
 * @param environment what the figures were measured on: Redis, JVM, the lab's settings
 * @param overlapped true when another run of this instance was measuring at the same
 * time, so the two measured each other too
 * @param fleet a run of several instances: who took part, each one's share and figures
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(value = "recommendation", allowGetters = true)
public record RunRecord(String id, RunKind kind, RunStatus status, Request request, Progress progress,
		boolean cancelRequested, String instance, Instant createdAt, @Nullable Instant startedAt,
		@Nullable Instant finishedAt, Instant updatedAt, @Nullable List<RunResult> results,
		@Nullable List<Comparison.Skipped> skipped, @Nullable String summary, @Nullable Problem problem,
		@Nullable Environment environment, @Nullable Boolean overlapped, @Nullable Fleet fleet) {

	/** A record without environment, as records written before it existed read. */
	public RunRecord(String id, RunKind kind, RunStatus status, Request request, Progress progress,
			boolean cancelRequested, String instance, Instant createdAt, @Nullable Instant startedAt,
			@Nullable Instant finishedAt, Instant updatedAt, @Nullable List<RunResult> results,
			@Nullable List<Comparison.Skipped> skipped, @Nullable String summary, @Nullable Problem problem) {
		this(id, kind, status, request, progress, cancelRequested, instance, createdAt, startedAt, finishedAt,
				updatedAt, results, skipped, summary, problem, null, null, null);
	}

	/**
	 * @param redisVersion {@code redis_version} from INFO, when Redis answered it
	 * @param topology standalone, sentinel or cluster, and the addresses configured
	 * @param jvm runtime name and version
	 * @param cores processors the JVM sees
	 * @param flushPolicy the app's default pipelining flush policy
	 * @param writes how pipelines reach Netty ({@code lab.pipeline.writes})
	 * @param maxConcurrent runs this instance measures at once
	 */
	public record Environment(@Nullable String redisVersion, String topology, String jvm, int cores, String flushPolicy,
			String writes, int maxConcurrent) {
	}

	/**
	 * DONE sweeps: the batch size to use, derived from the results as a sweep's answer
	 * derives it (see {@link Recommendation}).
	 */
	@JsonProperty("recommendation")
	public @Nullable Recommendation recommendation() {
		return (this.kind == RunKind.SWEEP && this.results != null) ? Recommendation.of(this.results) : null;
	}

	RunRecord withOverlap(boolean overlap) {
		return new RunRecord(this.id, this.kind, this.status, this.request, this.progress, this.cancelRequested,
				this.instance, this.createdAt, this.startedAt, this.finishedAt, this.updatedAt, this.results,
				this.skipped, this.summary, this.problem, this.environment, overlap ? Boolean.TRUE : null, this.fleet);
	}

	/**
	 * The body of {@code POST /runs} as it ran. Fields mean what the query parameters of
	 * the GET endpoints mean.
	 *
	 * @param mode single runs only
	 * @param ttl seconds, SET only
	 * @param rtt milliseconds added through the latency relay
	 * @param repeat comparisons and sweeps only
	 * @param variants comparisons only
	 * @param batchSizes sweeps only
	 * @param valueSize bytes per value, when asked for
	 * @param requests fan-out, when more than one request
	 * @param clients threads sending at once
	 * @param connector lettuce or jedis; comparisons name Jedis variants instead
	 * @param connection shared or pooled
	 * @param rate offered load in commands per second, when the run was paced
	 * @param duration seconds each timed pass could send for at most, when limited
	 * @param keys the key space, when the run walked one
	 * @param pattern how it walked it
	 * @param seed what the walk drew from, so posting the request again sends the same
	 * keys
	 * @param instances a fleet run's instances, when more than one
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Request(RunKind kind, String operation, @Nullable String mode, long count, int batchSize, int sample,
			@Nullable Long ttl, @Nullable String flushPolicy, @Nullable Double rtt, @Nullable Integer repeat,
			@Nullable List<String> variants, @Nullable List<Integer> batchSizes, @Nullable Integer valueSize,
			@Nullable Integer requests, int clients, @Nullable String connector, @Nullable String connection,
			@Nullable Integer rate, @Nullable Integer duration, @Nullable Long keys, @Nullable String pattern,
			@Nullable Long seed, @Nullable String ratio, @Nullable Integer instances) {
	}

	/**
	 * @param batchesDone batches sent so far, over every variant and repeat
	 * @param batchesTotal batches the whole job sends; 0 until it has started
	 * @param percent share of the job's expected time done, 0 to 100: each phase weighs
	 * what its commands and round trips are expected to cost, so a loop's phase weighs
	 * far more than a pipeline's of the same count
	 * @param phase what the job is doing: {@code warm-up <variant>}, {@code preparing},
	 * {@code timing <variant>}, {@code verifying <variant>}; absent until it starts
	 * @param elapsedSeconds since the job started running
	 * @param opsPerSecond commands per second in the current phase so far
	 * @param remainingSeconds estimated time left, from the pace so far; absent until it
	 * can be told
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Progress(long batchesDone, long batchesTotal, double percent, @Nullable String phase,
			@Nullable Double elapsedSeconds, @Nullable Double opsPerSecond, @Nullable Double remainingSeconds) {

		static final Progress NONE = new Progress(0, 0, 0);

		public Progress(long batchesDone, long batchesTotal, double percent) {
			this(batchesDone, batchesTotal, percent, null, null, null, null);
		}

		static Progress of(long done, long total) {
			double percent = (total > 0) ? Math.min(100, Math.floor(done * 1000.0 / total) / 10) : 0;
			return new Progress(done, total, percent);
		}

	}

	/**
	 * @param type the problem type a GET endpoint would have answered, e.g.
	 * {@link dev.pipelininglab.ProblemType#REDIS_UNAVAILABLE}
	 * @param title that problem's title
	 * @param detail what happened, for a person
	 */
	public record Problem(String type, String title, @Nullable String detail) {

		public static Problem of(ProblemType type, @Nullable String detail) {
			return new Problem(type.uri().toString(), type.title(), detail);
		}

	}

	RunRecord with(RunStatus newStatus, Progress newProgress, boolean cancel, Instant now) {
		return new RunRecord(this.id, this.kind, newStatus, this.request, newProgress, cancel, this.instance,
				this.createdAt, (newStatus == RunStatus.RUNNING && this.startedAt == null) ? now : this.startedAt,
				newStatus.terminal() ? now : null, now, this.results, this.skipped, this.summary, this.problem,
				this.environment, this.overlapped, this.fleet);
	}

	RunRecord finished(RunStatus finalStatus, Progress finalProgress, boolean cancel, Instant now,
			@Nullable List<RunResult> runResults, @Nullable List<Comparison.Skipped> skippedVariants,
			@Nullable String summarised, @Nullable Problem why) {
		return new RunRecord(this.id, this.kind, finalStatus, this.request, finalProgress, cancel, this.instance,
				this.createdAt, (this.startedAt != null) ? this.startedAt : now, now, now, runResults, skippedVariants,
				summarised, why, this.environment, this.overlapped, this.fleet);
	}

	RunRecord withFleet(Fleet now) {
		return new RunRecord(this.id, this.kind, this.status, this.request, this.progress, this.cancelRequested,
				this.instance, this.createdAt, this.startedAt, this.finishedAt, this.updatedAt, this.results,
				this.skipped, this.summary, this.problem, this.environment, this.overlapped, now);
	}

	RunRecord withCancelRequested() {
		return new RunRecord(this.id, this.kind, this.status, this.request, this.progress, true, this.instance,
				this.createdAt, this.startedAt, this.finishedAt, this.updatedAt, this.results, this.skipped,
				this.summary, this.problem, this.environment, this.overlapped, this.fleet);
	}

	/**
	 * A record still QUEUED or RUNNING that its instance has not updated within
	 * {@code staleAfter} belongs to an instance that died without a graceful shutdown;
	 * readers see it as failed rather than running forever.
	 */
	RunRecord seenAt(Instant now, Duration staleAfter) {
		if (this.status.terminal() || this.updatedAt.plus(staleAfter).isAfter(now)) {
			return this;
		}
		return finished(RunStatus.FAILED, this.progress, this.cancelRequested, this.updatedAt, null, null, null,
				Problem.of(ProblemType.RUN_ABANDONED, ProblemType.RUN_ABANDONED.detail(this.instance, this.updatedAt)));
	}

}
