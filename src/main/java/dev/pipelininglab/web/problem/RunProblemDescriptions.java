package dev.pipelininglab.web.problem;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.job.RunProblems;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.run.RunFailedException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/** A failed job gets the problem type and title the same failure gets from a GET. */
@Component
class RunProblemDescriptions implements RunProblems {

	private static final Logger log = LoggerFactory.getLogger(RunProblemDescriptions.class);

	@Override
	public RunRecord.Problem describe(RuntimeException failure) {
		if (failure instanceof RunFailedException failed) {
			Throwable cause = RedisFailure.causeOf(failed);
			ProblemType type = RedisFailure.classify(cause);
			String reason = (type == ProblemType.REDIS_ERROR_REPLY)
					? type.detail("a command on " + failed.key(), RedisFailure.replyText(cause)) : withCause(cause);
			return RunRecord.Problem.of(type,
					failed.spec().operation().label() + " " + failed.spec().mode().label() + " stopped after "
							+ failed.batchesCompleted() + " of " + failed.batchesTotal() + " batches ("
							+ failed.acknowledged() + " replies): " + reason);
		}
		if (failure instanceof ProblemException problem) {
			return RunRecord.Problem.of(problem.type(), problem.getMessage());
		}
		if (failure instanceof DataAccessException redis) {
			return RunRecord.Problem.of(RedisFailure.classify(redis), withCause(redis));
		}
		log.error("Unexpected failure of a run", failure);
		return RunRecord.Problem.of(ProblemType.UNEXPECTED, ProblemType.UNEXPECTED.detail("run", "completed"));
	}

	/** Spring's "Redis exception" with the cause a person can act on, if it wraps one. */
	static @Nullable String withCause(Throwable failure) {
		String message = failure.getMessage();
		Throwable root = NestedExceptionUtils.getMostSpecificCause(failure);
		String cause = root.getMessage();
		if (root == failure || cause == null || (message != null && message.contains(cause))) {
			return message;
		}
		return (message != null) ? message + ": " + cause : cause;
	}

}
