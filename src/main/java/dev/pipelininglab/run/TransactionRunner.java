package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.stereotype.Component;

/**
 * Each batch as one transaction, the way Spring's reference documentation writes it:
 * {@code StringRedisTemplate.execute(SessionCallback)} with {@code multi()}, the commands
 * and {@code exec()} on one bound connection, or the same inside {@code executePipelined}
 * ({@link Mode#PIPELINED_TRANSACTION}). Redis runs the batch whole, no other client's
 * command in between; whether the client waits for each {@code QUEUED} is what the two
 * variants show side by side with {@code pipelined}.
 */
@Component
class TransactionRunner implements BatchRunner {

	@Override
	public Mode mode() {
		return Mode.TRANSACTION;
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		if (topology.kind() == Topology.Kind.CLUSTER) {
			// LettuceClusterConnection.multi() throws InvalidDataAccessApiUsageException.
			return "Spring Data Redis runs no MULTI on a cluster connection: a transaction must stay on one node,"
					+ " so it takes keys of one hash slot sent on that node's own connection";
		}
		return null;
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		List<Object> replies = pass.route().template().execute(transaction(pass, from, to, false));
		count(pass, from, replies, tally);
	}

	/**
	 * MULTI, the batch's commands, EXEC, on the connection the session binds; inside a
	 * pipeline the callback answers null, as executePipelined requires, and EXEC's
	 * replies arrive in the pipeline's list.
	 */
	static SessionCallback<List<Object>> transaction(Pass pass, long from, long to, boolean pipelined) {
		return new SessionCallback<>() {
			@Override
			@SuppressWarnings({ "unchecked", "rawtypes" })
			public List<Object> execute(RedisOperations operations) throws DataAccessException {
				operations.multi();
				operations.execute((RedisCallback<Object>) (connection) -> {
					PipelinedRunner.send(connection, pass, from, to);
					return null;
				});
				List<Object> replies = operations.exec();
				return pipelined ? null : replies;
			}
		};
	}

	/**
	 * One reply per command; EXEC's list comes back nested in a pipeline's, and a
	 * discarded transaction (EXEC answering nil) as an empty list. The replies are those
	 * of items {@code from} on, in order.
	 */
	static void count(Pass pass, long from, @Nullable List<Object> replies, Tally tally) {
		if (replies == null) {
			return;
		}
		long item = from;
		for (Object reply : replies) {
			if (reply instanceof List<?> nested) {
				for (Object each : nested) {
					PipelinedRunner.count(pass, item++, text(each), tally);
				}
			}
			else {
				PipelinedRunner.count(pass, item++, text(reply), tally);
			}
		}
	}

	private static @Nullable Object text(@Nullable Object reply) {
		return (reply instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : reply;
	}

}
