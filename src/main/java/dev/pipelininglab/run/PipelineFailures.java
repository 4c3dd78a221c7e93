package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.ObjIntConsumer;
import java.util.regex.Pattern;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisPipelineException;

/**
 * Counts what a failed pipelined batch is known to have done, so a failure report never
 * claims more or less than it knows. Pipelines are not atomic: when Redis refuses one
 * command of a batch it still runs the others.
 * <p>
 * Spring Data Redis 4.1.1 and Lettuce 7.5 tell little about the failing batch itself:
 * {@code LettuceConnection.closePipeline()} waits with {@code LettuceFutures.awaitAll},
 * which throws at the first command that failed, so the {@link RedisPipelineException}
 * carries an <em>empty</em> result list and none of the other commands' outcomes. The
 * batch then counts as one refused command (when Redis's error reply is the cause) and
 * the rest as unconfirmed: they may well have run, which is why a SET run reads its keys
 * back after a refusal. Should a pipeline exception ever carry per-command results
 * (Spring Data Redis fills them in when only a reply conversion fails), they are counted
 * one by one.
 */
final class PipelineFailures {

	/**
	 * Redis error replies start with an upper-case code: WRONGTYPE, ERR, OOM, NOSCRIPT,
	 * READONLY...
	 */
	private static final Pattern ERROR_REPLY = Pattern.compile("^[A-Z][A-Z_-]+( .*)?$", Pattern.DOTALL);

	private PipelineFailures() {
	}

	/**
	 * Tallies the failed batch of {@code sent} commands: known replies go to
	 * {@code reply} with their index in the batch (as strings where they were raw bytes),
	 * error replies count as rejected, everything else as unconfirmed.
	 */
	static void tally(RedisPipelineException failure, long sent, ObjIntConsumer<Object> reply, Tally tally) {
		List<Object> outcomes = failure.getPipelineResult();
		if (outcomes.isEmpty()) {
			if (isErrorReply(failure)) {
				tally.rejected();
				tally.unconfirmed(sent - 1);
			}
			else {
				// Lost connection or timeout: no command of the batch is known to have
				// run or not.
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
				// Results are not deserialized when the pipeline fails; GET and RPOP
				// values are still bytes.
				reply.accept((outcome instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : outcome,
						index);
			}
		}
		if (outcomes.size() < sent) {
			// Every command the lab pipelines answers with a result, so a short list
			// means outcomes went missing.
			tally.unconfirmed(sent - outcomes.size());
		}
	}

	/**
	 * Whether Redis itself refused a command (an error reply), as opposed to not
	 * answering at all. A refused AUTH while connecting is an error reply too, but no
	 * command of the run got to Redis then.
	 */
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
