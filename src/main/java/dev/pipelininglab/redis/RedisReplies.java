package dev.pipelininglab.redis;

import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * Reads what Redis itself said out of a failure's cause chain, for the answers, the
 * health details and the log alike.
 */
public final class RedisReplies {

	private RedisReplies() {
	}

	/**
	 * Redis' own words when it refuses the credentials (WRONGPASS, NOAUTH), or null.
	 * Redis never repeats the password in them, so they are safe to show.
	 */
	public static @Nullable String authRefusal(Throwable failure) {
		return authRefusal(failure, 0);
	}

	/**
	 * Runs {@code probe} until it succeeds, at most three times, and returns the last
	 * failure (null once it succeeded). A failure that names no cause is tried again:
	 * Redis closes the connection right after refusing a password, and Lettuce sometimes
	 * sees only the closed connection, so one attempt cannot tell a refusal from an
	 * outage.
	 */
	public static @Nullable RuntimeException probe(Runnable probe) {
		RuntimeException failure = null;
		for (int attempt = 0; attempt < 3; attempt++) {
			try {
				probe.run();
				return null;
			}
			catch (RuntimeException ex) {
				failure = ex;
				if (authRefusal(ex) != null) {
					return ex;
				}
			}
		}
		return failure;
	}

	/**
	 * Walks the causes and the suppressed failures too: a cluster client that cannot load
	 * its slot map reports each node's refusal as a suppressed exception.
	 */
	private static @Nullable String authRefusal(@Nullable Throwable failure, int depth) {
		for (Throwable cause = failure; cause != null
				&& depth < 8; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			String message = cause.getMessage();
			if (cause instanceof RedisCommandExecutionException && message != null
					&& (message.startsWith("WRONGPASS") || message.startsWith("NOAUTH"))) {
				return message;
			}
			for (Throwable suppressed : cause.getSuppressed()) {
				String refusal = authRefusal(suppressed, depth + 1);
				if (refusal != null) {
					return refusal;
				}
			}
		}
		return null;
	}

}
