package dev.pipelininglab.web.problem;

import java.io.IOException;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.stream.Stream;

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
 * Sorts a Redis failure into a problem type, from the whole cause chain: Spring Data
 * Redis wraps Lettuce's exceptions differently on the blocking and the pipelined paths.
 */
final class RedisFailure {

	private RedisFailure() {
	}

	static Throwable causeOf(RunFailedException failed) {
		return Objects.requireNonNullElse(failed.getCause(), failed);
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
		return cause instanceof RedisCommandExecutionException
				|| (cause instanceof InvalidDataAccessApiUsageException && isErrorReply(cause.getMessage()));
	}

	/** Replies meaning "not now" (a failover, a server loading): 503, like an outage. */
	private static boolean isTransient(@Nullable String message) {
		return message != null
				&& message.matches("^(CLUSTERDOWN|TRYAGAIN|MASTERDOWN|MOVED|ASK|READONLY|LOADING|NOREPLICAS)( .*)?$");
	}

	private static boolean isErrorReply(@Nullable String message) {
		return message != null && message.matches("^[A-Z]{2,}( .*)?$");
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
