package dev.pipelininglab.run;

import java.util.List;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.stereotype.Component;

/**
 * Each batch as one transaction, the way Spring's reference documentation writes it:
 * {@code execute(SessionCallback)} with {@code multi()}, the commands and {@code exec()}
 * on one bound connection.
 */
@Component
class TransactionRunner implements BatchRunner {

	private final ClusterTransaction cluster;

	TransactionRunner(ClusterTransaction cluster) {
		this.cluster = cluster;
	}

	@Override
	public Mode mode() {
		return Mode.TRANSACTION;
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		if (topology.kind() != Topology.Kind.CLUSTER) {
			return null;
		}
		// LettuceClusterConnection.multi() throws: ClusterTransaction sends to the
		// master.
		if (spec.senders().connector() != Connector.LETTUCE) {
			return "on a cluster the lab sends a transaction on a Lettuce node connection; Spring Data Redis's Jedis"
					+ " cluster connection runs no MULTI";
		}
		if (!spec.operation().command().keyPerItem()) {
			return "on a cluster the lab runs transactions of commands with a key per item (SET, GET, mixed), whose"
					+ " keys show the hash slots";
		}
		return null;
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		if (pass.route().connector() == Connector.LETTUCE && pass.route().lettuce().isClusterAware()) {
			this.cluster.run(pass, from, to, tally);
			return;
		}
		count(pass, from, pass.route().template().execute(transaction(pass, from, to, false)), tally);
	}

	/** Inside a pipeline EXEC's replies arrive in the pipeline's list. */
	static SessionCallback<@Nullable List<Object>> transaction(Pass pass, long from, long to, boolean pipelined) {
		return new SessionCallback<>() {
			@Override
			// executePipelined requires its callback to answer null (NullAway cannot
			// carry the type argument's @Nullable into this anonymous class).
			@SuppressWarnings({ "unchecked", "rawtypes", "NullAway" })
			public @Nullable List<Object> execute(RedisOperations operations) throws DataAccessException {
				operations.multi();
				operations.execute((RedisCallback<@Nullable Object>) (connection) -> {
					PipelinedRunner.send(connection, pass, from, to);
					return null;
				});
				List<Object> replies = operations.exec();
				return pipelined ? null : replies;
			}
		};
	}

	/**
	 * EXEC's list comes back nested in a pipeline's, and a discarded transaction (EXEC
	 * answering nil) as an empty list.
	 */
	static void count(Pass pass, long from, @Nullable List<Object> replies, Tally tally) {
		if (replies == null) {
			return;
		}
		long item = from;
		for (Object reply : replies) {
			if (reply instanceof List<?> nested) {
				for (Object each : nested) {
					pass.command(item++).count(each, tally);
				}
			}
			else {
				pass.command(item++).count(reply, tally);
			}
		}
	}

}
