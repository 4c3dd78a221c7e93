package dev.pipelininglab.web.problem;

import java.io.IOException;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.stream.Stream;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.job.RunProblems;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.redis.RedisReplies;
import dev.pipelininglab.run.RunFailedException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.stereotype.Component;

/**
 * Sorts a Redis failure into a problem type, from the whole cause chain: Spring Data
 * Redis wraps Lettuce's exceptions differently on the blocking and the pipelined paths. A
 * failed job gets the problem type and title the same failure gets from a GET.
 */
@Component
class RedisFailure implements RunProblems {

	private static final Logger log = LoggerFactory.getLogger(RedisFailure.class);

	@Override
	public RunRecord.Problem describe(RuntimeException failure) {
		if (failure instanceof RunFailedException failed) {
			Throwable cause = causeOf(failed);
			ProblemType type = classify(cause);
			String reason = (type == ProblemType.REDIS_ERROR_REPLY)
					? type.detail("a command on " + failed.key(), replyText(cause)) : withCause(cause);
			return RunRecord.Problem.of(type,
					failed.spec().operation().label() + " " + failed.spec().mode().label() + " stopped after "
							+ failed.batchesCompleted() + " of " + failed.batchesTotal() + " batches ("
							+ failed.acknowledged() + " replies): " + reason);
		}
		if (failure instanceof ProblemException problem) {
			return RunRecord.Problem.of(problem.type(), problem.getMessage());
		}
		if (failure instanceof DataAccessException redis) {
			return RunRecord.Problem.of(classify(redis), withCause(redis));
		}
		log.error("Unexpected failure of a run", failure);
		return RunRecord.Problem.of(ProblemType.UNEXPECTED, ProblemType.UNEXPECTED.detail("run", "completed"));
	}

	/**
	 * What Redis or the client threw inside a failed run: what a GET and a job both
	 * classify.
	 */
	static Throwable causeOf(RunFailedException failed) {
		return Objects.requireNonNullElse(failed.getCause(), failed);
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

	static ProblemType classify(Throwable failure) {
		// Before the outage checks: a refused AUTH comes wrapped in "Unable to connect".
		if (RedisReplies.authRefusal(failure) != null) {
			return ProblemType.REDIS_AUTH_FAILED;
		}
		// Wrapped alike, though Redis is fine: the app's own connections were all taken.
		if (isPoolExhausted(failure)) {
			return ProblemType.TOO_BUSY;
		}
		for (Throwable cause : chain(failure).toList()) {
			if (cause instanceof QueryTimeoutException || cause instanceof RedisCommandTimeoutException) {
				return ProblemType.REDIS_TIMEOUT;
			}
			if (cause instanceof RedisConnectionFailureException || cause instanceof RedisConnectionException
					|| cause instanceof IOException || isDisconnected(cause.getMessage())) {
				return ProblemType.REDIS_UNAVAILABLE;
			}
			String message = cause.getMessage();
			if (isErrorReplyException(cause)) {
				return (message != null && message.startsWith("CLUSTERDOWN")) ? ProblemType.REDIS_CLUSTER_DOWN
						: isTransient(message) ? ProblemType.REDIS_UNAVAILABLE : ProblemType.REDIS_ERROR_REPLY;
			}
		}
		return ProblemType.REDIS_UNAVAILABLE;
	}

	/** commons-pool2's words when no connection came free within pool.max-wait. */
	private static boolean isPoolExhausted(Throwable failure) {
		return chain(failure).anyMatch((cause) -> cause instanceof NoSuchElementException && cause.getMessage() != null
				&& (cause.getMessage().startsWith("Timeout waiting for idle object")
						|| cause.getMessage().startsWith("Pool exhausted")));
	}

	private static Stream<Throwable> chain(Throwable failure) {
		return Stream.iterate(failure, Objects::nonNull, Throwable::getCause);
	}

	/** Lettuce's words while reconnecting, or when a connection dies under a command. */
	private static boolean isDisconnected(@Nullable String message) {
		return message != null && Stream
			.of("not connected", "Connection closed", "Connection reset", "Connection refused",
					"Connection disconnected")
			.anyMatch(message::contains);
	}

	/** The pipelined path's error reply is this exception with the reply text alone. */
	private static boolean isErrorReplyException(Throwable cause) {
		return cause instanceof RedisCommandExecutionException || (cause instanceof InvalidDataAccessApiUsageException
				&& cause.getMessage() != null && cause.getMessage().matches("^[A-Z]{2,}( .*)?$"));
	}

	/** Replies meaning "not now" (a failover, a server loading): 503, like an outage. */
	private static boolean isTransient(@Nullable String message) {
		return message != null
				&& message.matches("^(CLUSTERDOWN|TRYAGAIN|MASTERDOWN|MOVED|ASK|READONLY|LOADING|NOREPLICAS)( .*)?$");
	}

	static @Nullable String replyText(Throwable failure) {
		String reply = errorReply(failure);
		return (reply != null) ? reply : failure.getMessage();
	}

	/** The reply Redis sent, or null: a client-side failure is not Redis' words. */
	static @Nullable String errorReply(Throwable failure) {
		return chain(failure).filter(RedisFailure::isErrorReplyException)
			.findFirst()
			.map(Throwable::getMessage)
			.orElse(null);
	}

}
