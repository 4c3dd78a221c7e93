package dev.pipelininglab.run;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.redis.MasterConnections;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.stereotype.Component;

/**
 * A batch as one MULTI ... EXEC on the own connection of its first key's master: Spring
 * Data Redis runs no MULTI on a cluster connection and Lettuce's router would spread the
 * commands. Keys of other slots make EXEC answer CROSSSLOT (or EXECABORT after a MOVED
 * while queueing), and nothing of the batch is applied.
 */
@Component
class ClusterTransaction {

	private final MasterConnections masters;

	ClusterTransaction(MasterConnections masters) {
		this.masters = masters;
	}

	void run(Pass pass, long from, long to, Tally tally) {
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
			TransactionResult replies = await(exec, pass, uri);
			long item = from;
			for (Object reply : replies) {
				pass.command(item++).count(reply, tally);
			}
		}
	}

	private static TransactionResult await(RedisFuture<TransactionResult> exec, Pass pass, RedisURI master) {
		String address = master.getHost() + ":" + master.getPort();
		try {
			return exec.get(pass.route().lettuce().getTimeout(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			Throwable refusal = (ex.getCause() != null) ? ex.getCause() : ex;
			throw new CrossSlotTransactionException(
					ProblemType.CROSS_SLOT_TRANSACTION.detail(address, refusal.getMessage()), refusal);
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
