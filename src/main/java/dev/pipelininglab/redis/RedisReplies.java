package dev.pipelininglab.redis;

import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;

/** Reads what Redis itself said out of a failure's cause chain. */
public final class RedisReplies {

	private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

	private RedisReplies() {
	}

	/** Spring's translation of a Lettuce failure, else {@code otherwise}'s exception. */
	public static RuntimeException translatedOr(Throwable failure,
			Function<Throwable, ? extends RuntimeException> otherwise) {
		DataAccessException translated = (failure instanceof Exception ex) ? EXCEPTIONS.convert(ex) : null;
		return (translated != null) ? translated : otherwise.apply(failure);
	}

	/** Spring's translation of a Lettuce failure, or the failure itself. */
	public static RuntimeException translatedOr(RuntimeException failure) {
		return translatedOr(failure, (other) -> failure);
	}

	/** {@code call}'s answer, or its failure as Spring translates a Lettuce failure. */
	static <T> T translating(Supplier<T> call) {
		try {
			return call.get();
		}
		catch (RuntimeException ex) {
			throw translatedOr(ex);
		}
	}

	public static @Nullable String authRefusal(Throwable failure) {
		return authRefusal(failure, 0);
	}

	// Tried up to three times: Redis closes the connection right after refusing a
	// password, and Lettuce sometimes sees only the closed connection.
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

	// Suppressed failures too: a cluster client reports each node's refusal as one.
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
