package dev.pipelininglab.job;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.redis.KeySpace;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.Recommendation;
import dev.pipelininglab.run.RunResult;
import org.jspecify.annotations.Nullable;

/**
 * A job as kept in Redis and answered by {@code GET /runs/{id}}: small, so polling and
 * listing stay cheap. Field names are a contract with the page, the Postman collection
 * and scripts; docs/web-and-jobs.md says what each means.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunRecord(String id, RunKind kind, RunStatus status, Request request, Progress progress,
		boolean cancelRequested, String instance, Instant createdAt, @Nullable Instant startedAt,
		@Nullable Instant finishedAt, Instant updatedAt, @Nullable List<RunResult> results,
		@Nullable List<Comparison.Skipped> skipped, @Nullable String summary, @Nullable Problem problem,
		@Nullable Environment environment, @Nullable Boolean overlapped, @Nullable Fleet fleet,
		@Nullable List<KeySpace.Range> writes) {

	public record Environment(@Nullable String redisVersion, String topology, String jvm, int cores, String flushPolicy,
			String writes, int maxConcurrent) {
	}

	/** DONE sweeps: derived from the results as a sweep's answer derives it. */
	@JsonProperty(access = JsonProperty.Access.READ_ONLY)
	public @Nullable Recommendation recommendation() {
		return (this.kind == RunKind.SWEEP && this.results != null) ? Recommendation.of(this.results) : null;
	}

	/** The body of {@code POST /runs} as it ran: posting it again repeats the run. */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Request(RunKind kind, String operation, @Nullable String mode, long count, int batchSize, int sample,
			@Nullable Long ttl, @Nullable String flushPolicy, @Nullable Double rtt, @Nullable Integer repeat,
			@Nullable List<String> variants, @Nullable List<Integer> batchSizes, @Nullable Integer valueSize,
			@Nullable Integer requests, int clients, @Nullable String connector, @Nullable String connection,
			@Nullable Integer rate, @Nullable Integer duration, @Nullable Long keys, @Nullable String pattern,
			@Nullable Long seed, @Nullable String ratio, @Nullable Integer instances) {
	}

	/**
	 * {@code percent}: each phase weighs what its commands and round trips are expected
	 * to cost, so a loop's phase weighs far more than a pipeline's of the same count.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Progress(long batchesDone, long batchesTotal, double percent, @Nullable String phase,
			@Nullable Double elapsedSeconds, @Nullable Double opsPerSecond, @Nullable Double remainingSeconds) {

		static final Progress NONE = new Progress(0, 0, 0);

		public Progress(long batchesDone, long batchesTotal, double percent) {
			this(batchesDone, batchesTotal, percent, null, null, null, null);
		}

	}

	/** {@code type}: the problem type a GET endpoint would have answered. */
	public record Problem(String type, String title, @Nullable String detail) {

		public static Problem of(ProblemType type, @Nullable String detail) {
			return new Problem(type.uri().toString(), type.title(), detail);
		}

	}

	/**
	 * No record for this id: it never existed, expired, or was removed with the demo
	 * keys.
	 */
	public static ProblemException notFound(String id) {
		return new ProblemException(ProblemType.RUN_NOT_FOUND, ProblemType.RUN_NOT_FOUND.detail(id), "id", id);
	}

	/** A cancel request for a run that has already reached a final status. */
	public ProblemException finished() {
		return new ProblemException(ProblemType.RUN_FINISHED, ProblemType.RUN_FINISHED.detail(this.id, this.status),
				"id", this.id, "runStatus", this.status);
	}

	RunRecord with(RunStatus newStatus, Progress newProgress, boolean cancel, Instant now) {
		return new RunRecord(this.id, this.kind, newStatus, this.request, newProgress, cancel, this.instance,
				this.createdAt, (newStatus == RunStatus.RUNNING && this.startedAt == null) ? now : this.startedAt,
				newStatus.terminal() ? now : null, now, this.results, this.skipped, this.summary, this.problem,
				this.environment, this.overlapped, this.fleet, this.writes);
	}

	RunRecord finished(RunStatus finalStatus, Progress finalProgress, boolean cancel, Instant now,
			RunPlan.@Nullable Outcome outcome, @Nullable Problem why, @Nullable Boolean overlap) {
		return new RunRecord(this.id, this.kind, finalStatus, this.request, finalProgress, cancel, this.instance,
				this.createdAt, (this.startedAt != null) ? this.startedAt : now, now, now,
				(outcome != null) ? outcome.results() : null, (outcome != null) ? outcome.skipped() : null,
				(outcome != null) ? outcome.summary() : null, why, this.environment, overlap, this.fleet, this.writes);
	}

	RunRecord withFleet(Fleet now) {
		return new RunRecord(this.id, this.kind, this.status, this.request, this.progress, this.cancelRequested,
				this.instance, this.createdAt, this.startedAt, this.finishedAt, this.updatedAt, this.results,
				this.skipped, this.summary, this.problem, this.environment, this.overlapped, now, this.writes);
	}

	/** A final record's updatedAt is its finishedAt. */
	RunRecord withCancelRequested() {
		return with(this.status, this.progress, true, this.updatedAt);
	}

	/**
	 * A record still QUEUED or RUNNING that its instance has not updated within
	 * {@code staleAfter} belongs to an instance that died: failed, not running forever.
	 */
	RunRecord seenAt(Instant now, Duration staleAfter) {
		if (this.status.terminal() || this.updatedAt.plus(staleAfter).isAfter(now)) {
			return this;
		}
		return finished(RunStatus.FAILED, this.progress, this.cancelRequested, this.updatedAt, null,
				Problem.of(ProblemType.RUN_ABANDONED, ProblemType.RUN_ABANDONED.detail(this.instance, this.updatedAt)),
				this.overlapped);
	}

}
