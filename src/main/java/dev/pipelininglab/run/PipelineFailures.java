package dev.pipelininglab.run;

import java.util.List;
import java.util.function.ObjIntConsumer;
import java.util.regex.Pattern;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisPipelineException;

/**
 * Counts what a failed pipelined batch is known to have done: pipelines are not atomic,
 * Redis runs the others when it refuses one command. Spring Data Redis 4.1.1 waits with
 * {@code LettuceFutures.awaitAll}, which throws at the first failed command, so the
 * {@link RedisPipelineException} carries an <em>empty</em> result list: the batch counts
 * as one refused command and the rest as unconfirmed (a SET run reads its keys back).
 * Per-command results, when an exception carries them, are counted one by one.
 */
final class PipelineFailures {

	/** An upper-case code first: WRONGTYPE, ERR, OOM, NOSCRIPT, READONLY... */
	private static final Pattern ERROR_REPLY = Pattern.compile("^[A-Z][A-Z_-]+( .*)?$", Pattern.DOTALL);

	private PipelineFailures() {
	}

	/** Known replies go to {@code reply} with their index in the batch. */
	static void tally(RedisPipelineException failure, long sent, ObjIntConsumer<Object> reply, Tally tally) {
		List<Object> outcomes = failure.getPipelineResult();
		if (outcomes.isEmpty()) {
			if (isErrorReply(failure)) {
				tally.rejected();
				tally.unconfirmed(sent - 1);
			}
			else {
				// Lost connection or timeout: nothing is known of the batch.
				tally.unconfirmed(sent);
			}
			return;
		}
		for (int index = 0; index < outcomes.size(); index++) {
			Object outcome = outcomes.get(index);
			if (outcome instanceof Exception ex) {
				if (ex.getMessage() != null && ERROR_REPLY.matcher(ex.getMessage()).matches()) {
					tally.rejected();
				}
				else {
					tally.unconfirmed(1);
				}
			}
			else {
				// Not deserialized when the pipeline fails: GET values are bytes.
				reply.accept(Command.text(outcome), index);
			}
		}
		if (outcomes.size() < sent) {
			// Every command answers, so a short list means outcomes went missing.
			tally.unconfirmed(sent - outcomes.size());
		}
	}

	/** A refused AUTH while connecting is an error reply too, but reached no command. */
	static boolean isErrorReply(Throwable failure) {
		boolean errorReply = false;
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof RedisConnectionFailureException || cause instanceof RedisConnectionException) {
				return false;
			}
			errorReply |= cause instanceof RedisCommandExecutionException;
		}
		return errorReply;
	}

}
