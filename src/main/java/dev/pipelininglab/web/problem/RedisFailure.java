package dev.pipelininglab.web.problem;

import java.io.IOException;
import java.util.NoSuchElementException;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.redis.RedisReplies;
import dev.pipelininglab.run.RunFailedException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * Sorts a Redis failure into what the client should hear. Spring Data Redis wraps
 * Lettuce's exceptions differently on the blocking and the pipelined paths, so the whole
 * cause chain is inspected.
 */
final class RedisFailure {

	private RedisFailure() {
	}

	/**
	 * What a failed run ran into: the Redis failure it carries (always, as it is built),
	 * or the run's own failure.
	 */
	static Throwable causeOf(RunFailedException failed) {
		Throwable cause = failed.getCause();
		return (cause != null) ? cause : failed;
	}

	static ProblemType classify(Throwable failure) {
		// Checked first: a refused AUTH arrives wrapped in "Unable to connect", which
		// would read as an outage.
		if (authRefusal(failure) != null) {
			return ProblemType.REDIS_AUTH_FAILED;
		}
		// Also wrapped in "Unable to connect", though Redis is fine: the app's own
		// connections were all taken.
		if (isPoolExhausted(failure)) {
			return ProblemType.TOO_BUSY;
		}
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof QueryTimeoutException || cause instanceof RedisCommandTimeoutException) {
				return ProblemType.REDIS_TIMEOUT;
			}
			if (cause instanceof RedisConnectionFailureException || cause instanceof RedisConnectionException
					|| cause instanceof IOException || isDisconnected(cause.getMessage())) {
				return ProblemType.REDIS_UNAVAILABLE;
			}
			String message = cause.getMessage();
			if (isErrorReplyException(cause) && message != null && message.startsWith("CLUSTERDOWN")) {
				return ProblemType.REDIS_CLUSTER_DOWN;
			}
			if (isErrorReplyException(cause) && isTransient(cause.getMessage())) {
				return ProblemType.REDIS_UNAVAILABLE;
			}
			if (cause instanceof RedisCommandExecutionException) {
				return ProblemType.REDIS_ERROR_REPLY;
			}
			// The pipelined path reports an error reply as this exception carrying only
			// the reply text.
			if (cause instanceof InvalidDataAccessApiUsageException && isErrorReply(cause.getMessage())) {
				return ProblemType.REDIS_ERROR_REPLY;
			}
		}
		return ProblemType.REDIS_UNAVAILABLE;
	}

	/** Redis' own words when it refuses the credentials (WRONGPASS, NOAUTH), or null. */
	static @Nullable String authRefusal(Throwable failure) {
		return RedisReplies.authRefusal(failure);
	}

	/**
	 * commons-pool2's words when no pooled connection came free within
	 * spring.data.redis.lettuce.pool.max-wait.
	 */
	private static boolean isPoolExhausted(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof NoSuchElementException && cause.getMessage() != null
					&& (cause.getMessage().startsWith("Timeout waiting for idle object")
							|| cause.getMessage().startsWith("Pool exhausted"))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Lettuce's words when it rejects commands while reconnecting, or a connection dies
	 * under a command.
	 */
	private static boolean isDisconnected(@Nullable String message) {
		return message != null && (message.contains("not connected") || message.contains("Connection closed")
				|| message.contains("Connection reset") || message.contains("Connection refused")
				|| message.contains("Connection disconnected"));
	}

	private static boolean isErrorReplyException(Throwable cause) {
		return cause instanceof RedisCommandExecutionException
				|| (cause instanceof InvalidDataAccessApiUsageException && isErrorReply(cause.getMessage()));
	}

	/**
	 * Error replies that mean "not now" rather than "never": a cluster or sentinel
	 * failover in progress (CLUSTERDOWN, TRYAGAIN, MASTERDOWN, a redirect Lettuce gave up
	 * following, a write reaching a master demoted to READONLY), or a server still
	 * loading its data. Retrying later succeeds, so they are a 503 like an unreachable
	 * server.
	 */
	private static boolean isTransient(@Nullable String message) {
		return message != null && message
			.matches("^(CLUSTERDOWN|TRYAGAIN|MASTERDOWN|MOVED|ASK|READONLY|LOADING" + "|NOREPLICAS)( .*)?$");
	}

	/**
	 * Redis error replies start with an upper-case code: WRONGTYPE, ERR, OOM, MOVED,
	 * NOSCRIPT...
	 */
	private static boolean isErrorReply(@Nullable String message) {
		return message != null && message.matches("^[A-Z]{2,}( .*)?$");
	}

	/**
	 * The error reply text, e.g. "WRONGTYPE Operation against a key holding the wrong
	 * kind of value".
	 */
	static @Nullable String replyText(Throwable failure) {
		String reply = errorReply(failure);
		return (reply != null) ? reply : failure.getMessage();
	}

	/**
	 * The error reply Redis sent, or null when the failure carries none (a client-side
	 * failure such as Spring Data Redis' "Pipeline contained one or more invalid
	 * commands" must not be quoted as if Redis had said it).
	 */
	static @Nullable String errorReply(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof RedisCommandExecutionException
					|| (cause instanceof InvalidDataAccessApiUsageException && isErrorReply(cause.getMessage()))) {
				return cause.getMessage();
			}
		}
		return null;
	}

}
