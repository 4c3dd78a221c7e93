package dev.pipelininglab.run;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.MasterConnections;
import dev.pipelininglab.redis.Topology;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
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
class TransactionRunner extends BatchRunner {

	private final MasterConnections masters;

	TransactionRunner(MasterConnections masters) {
		super(Mode.TRANSACTION);
		this.masters = masters;
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		if (topology.kind() != Topology.Kind.CLUSTER) {
			return null;
		}
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
			onMaster(pass, from, to, tally);
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

	/** EXEC's list nests in a pipeline's; a discarded transaction's is empty. */
	static void count(Pass pass, long from, @Nullable List<Object> replies, Tally tally) {
		if (replies != null) {
			pass.count(from,
					replies.stream()
						.flatMap((reply) -> (reply instanceof List<?> nested) ? nested.stream() : Stream.of(reply))
						.toList(),
					tally);
		}
	}

	/**
	 * On the first key's master's own connection: LettuceClusterConnection.multi() throws
	 * and Lettuce's router would spread the commands. Other slots' keys fail EXEC whole.
	 */
	private void onMaster(Pass pass, long from, long to, Tally tally) {
		try (MasterConnections.Borrowed borrowed = this.masters.borrow(pass.route().lettuce())) {
			int slot = SlotHash.getSlot(pass.keyBytes(from));
			RedisClusterNode master = borrowed.cluster().getPartitions().getMasterBySlot(slot);
			if (master == null) {
				borrowed.refreshTopology();
				master = borrowed.cluster().getPartitions().getMasterBySlot(slot);
			}
			if (master == null) {
				throw new IllegalStateException("No master serves slot " + slot);
			}
			RedisURI uri = master.getUri();
			StatefulRedisConnection<byte[], byte[]> node = borrowed.master(uri.getHost(), uri.getPort());
			RedisAsyncCommands<byte[], byte[]> commands = node.async();
			commands.multi();
			for (long item = from; item < to; item++) {
				pass.command(item).async(commands, pass, item, pass.keyBytes(item));
			}
			RedisFuture<TransactionResult> exec = commands.exec();
			node.flushCommands();
			pass.count(from, await(exec, pass, uri), tally);
		}
	}

	private static TransactionResult await(RedisFuture<TransactionResult> exec, Pass pass, RedisURI master) {
		String address = master.getHost() + ":" + master.getPort();
		try {
			return exec.get(pass.route().lettuce().getTimeout(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			Throwable refusal = (ex.getCause() != null) ? ex.getCause() : ex;
			// A master refused a transaction whose keys span hash slots.
			ProblemException crossSlot = new ProblemException(ProblemType.CROSS_SLOT_TRANSACTION,
					ProblemType.CROSS_SLOT_TRANSACTION.detail(address, refusal.getMessage()));
			crossSlot.initCause(refusal);
			throw crossSlot;
		}
		catch (TimeoutException ex) {
			throw new QueryTimeoutException("EXEC on " + address + " did not answer in time", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RunCancelledException();
		}
	}

}
