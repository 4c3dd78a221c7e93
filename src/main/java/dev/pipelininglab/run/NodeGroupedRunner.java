package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.MasterConnections;
import dev.pipelininglab.redis.NodeConnections;
import dev.pipelininglab.redis.Topology;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.ClusterStateFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.stereotype.Component;

/**
 * A cluster pipeline the way Jedis' {@code ClusterPipeline} and redis-py's cluster
 * pipeline send one: each key's slot ({@code SlotHash.getSlot}) picks the master that
 * owns it in Lettuce's view of the cluster, the batch is grouped by master, and each
 * group goes as one pipeline on that master's own connection (auto-flush off, one flush),
 * every master at once: one group on the calling thread, the others on a small pool.
 * Replies are merged back in command order and tallied like every other runner's.
 * <p>
 * A command a node answers with MOVED or ASK (its slot moved during a resharding or a
 * failover) is sent again to the node the reply names: after a MOVED (or a redirect to a
 * node Lettuce does not know) once its view of the slots is read again, after an ASK with
 * ASKING in front. Up to {@code spring.data.redis.cluster.max-redirects} rounds
 * (Lettuce's 5 when unset), and every resend is counted ({@code redirects} in the
 * result). A node that cannot be reached fails the batch: its commands are counted
 * unconfirmed, never as written.
 * <p>
 * Spring Data Redis has no pipeline per node ({@code executePipelined} on a cluster hands
 * every command to Lettuce's router on one connection), so this is Lettuce's API below
 * it: {@code getPartitions().getMasterBySlot}, {@code getConnection(host, port, WRITE)},
 * {@code setAutoFlushCommands(false)} and {@code flushCommands()}.
 */
@Component
class NodeGroupedRunner implements BatchRunner, DisposableBean {

	private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

	/** Lettuce's own default (ClusterClientOptions.DEFAULT_MAX_REDIRECTS). */
	private static final int DEFAULT_MAX_REDIRECTS = 5;

	private static final AtomicInteger THREADS = new AtomicInteger();

	private final MasterConnections masters;

	/**
	 * Writes the groups beyond the caller's own. A task only builds and flushes commands,
	 * it never waits on Redis, so a pool the size of the machine keeps up.
	 */
	private final ExecutorService senders = Executors
		.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()), (task) -> {
			Thread thread = new Thread(task, "node-pipeline-" + THREADS.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});

	NodeGroupedRunner(MasterConnections masters) {
		this.masters = masters;
	}

	@Override
	public Mode mode() {
		return Mode.PIPELINED_BY_NODE;
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		if (topology.kind() != Topology.Kind.CLUSTER) {
			return "groups each batch by the cluster master that owns each key's slot; on " + topology.kind()
					+ " one server holds every key, so this is variant pipelined";
		}
		if (spec.senders().connector() == Connector.JEDIS) {
			return "Spring Data Redis exposes no Jedis cluster pipeline (its JedisClusterConnection does not"
					+ " pipeline); Jedis' own ClusterPipeline sits below Spring Data Redis";
		}
		return spec.operation().command().keyPerItem() ? null : spec.operation().lacks(mode());
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		int count = (int) (to - from);
		byte[][] keys = new byte[count][];
		for (int i = 0; i < count; i++) {
			keys[i] = pass.keyBytes(from + i);
		}
		LettuceConnectionFactory factory = pass.route().lettuce();
		Duration timeout = factory.getClientConfiguration().getCommandTimeout();
		NodeBatch batch = new NodeBatch(pass, from, keys);
		try (MasterConnections.Borrowed borrowed = this.masters.borrow(factory)) {
			// Auto-flush is off: a command for a node still being connected could miss
			// its flush (lettuce issues 1111, 2420). Before every batch, as a failover
			// moves slots to a master not connected yet.
			NodeConnections.connect(borrowed.cluster(), false, timeout);
			sendOrCount(borrowed, batch, byMaster(borrowed.cluster().getPartitions(), keys), tally);
			int maxRedirects = maxRedirects(factory);
			boolean answered = await(batch, timeout);
			for (int round = 0; answered && round < maxRedirects; round++) {
				Map<String, NodeBatch.Group> redirected = NodeBatch.redirects(batch);
				if (redirected.isEmpty()) {
					break;
				}
				if (stale(borrowed.cluster().getPartitions(), redirected)) {
					borrowed.refreshTopology();
				}
				sendOrCount(borrowed, batch, redirected, tally);
				tally.redirected(redirected.values().stream().mapToLong((group) -> group.size).sum());
				answered = await(batch, timeout);
			}
		}
		tallyInOrder(pass, batch, tally, timeout);
	}

	/**
	 * The batch's items grouped by the master that owns their slot now, one group per
	 * {@code host:port}. Lettuce's periodic topology refresh reloads the partitions with
	 * new node objects, possibly in the middle of this loop, so two node objects can name
	 * the same master: the node object only saves building the name for every key.
	 */
	static Map<String, NodeBatch.Group> byMaster(Partitions partitions, byte[][] keys) {
		Map<RedisClusterNode, NodeBatch.Group> byNode = new IdentityHashMap<>();
		Map<String, NodeBatch.Group> named = new LinkedHashMap<>();
		for (int i = 0; i < keys.length; i++) {
			int slot = SlotHash.getSlot(keys[i]);
			RedisClusterNode master = partitions.getMasterBySlot(slot);
			if (master == null) {
				throw new ClusterStateFailureException("No master serves hash slot " + slot
						+ " in Lettuce's view of the cluster (a failover under way?)");
			}
			NodeBatch.Group group = byNode.get(master);
			if (group == null) {
				String host = master.getUri().getHost();
				int port = master.getUri().getPort();
				group = named.computeIfAbsent(host + ":" + port,
						(name) -> new NodeBatch.Group(host, port, false, keys.length));
				byNode.put(master, group);
			}
			group.add(i);
		}
		return named;
	}

	/**
	 * Whether Lettuce's view must be read again before the redirected commands go out: a
	 * MOVED says the view is old (and the next batches would meet it too), and a node the
	 * view does not know cannot be connected to. An ASK to a known node does not: the
	 * slot still belongs to the node that answered until its migration ends.
	 */
	private static boolean stale(Partitions partitions, Map<String, NodeBatch.Group> redirected) {
		return redirected.values()
			.stream()
			.anyMatch((group) -> !group.asking || partitions.getPartition(group.host, group.port) == null);
	}

	/**
	 * {@link #send}; when it fails (a master cannot be connected), no command of the
	 * batch is known to have run or not, and the batch counts as unconfirmed.
	 */
	private void sendOrCount(MasterConnections.Borrowed borrowed, NodeBatch batch, Map<String, NodeBatch.Group> groups,
			Tally tally) {
		try {
			send(borrowed, batch, groups);
		}
		catch (RuntimeException ex) {
			tally.unconfirmed(batch.futures.length);
			throw ex;
		}
	}

	/**
	 * One pipeline per group, all at once: every group but the last on the pool, the last
	 * on this thread; returns once every group is flushed.
	 */
	private void send(MasterConnections.Borrowed borrowed, NodeBatch batch, Map<String, NodeBatch.Group> groups) {
		List<NodeBatch.Group> all = new ArrayList<>(groups.values());
		List<Future<?>> others = new ArrayList<>();
		RuntimeException failure = null;
		try {
			for (NodeBatch.Group group : all.subList(0, all.size() - 1)) {
				others.add(this.senders.submit(() -> pipeline(borrowed, batch, group)));
			}
			pipeline(borrowed, batch, all.get(all.size() - 1));
		}
		catch (RuntimeException ex) {
			failure = ex;
		}
		// Every task is done before the connection can go back to the pool.
		for (Future<?> other : others) {
			try {
				other.get();
			}
			catch (ExecutionException ex) {
				if (failure == null) {
					failure = (ex.getCause() instanceof RuntimeException cause) ? cause
							: new RedisSystemException("Sending a pipeline failed", ex.getCause());
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new RedisSystemException("Interrupted while sending pipelines", ex);
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	/** Writes one group's commands to its master's connection, then flushes them. */
	private static void pipeline(MasterConnections.Borrowed borrowed, NodeBatch batch, NodeBatch.Group group) {
		StatefulRedisConnection<byte[], byte[]> connection = borrowed.master(group.host, group.port);
		RedisAsyncCommands<byte[], byte[]> async = connection.async();
		Pass pass = batch.pass;
		for (int k = 0; k < group.size; k++) {
			int i = group.items[k];
			if (group.asking) {
				// ASK holds for the one command that follows ASKING.
				async.asking();
			}
			byte[] key = batch.keys[i];
			batch.sentTo[i] = group.host;
			long item = batch.from + i;
			batch.futures[i] = pass.command(item).async(async, pass, item, key);
		}
		connection.flushCommands();
	}

	/**
	 * Waits until every command of the batch is answered or the command timeout passed,
	 * one future after the other as Lettuce's {@code LettuceFutures.awaitAll} does (which
	 * stops at the first error reply, and a MOVED is one): once the first reply is in,
	 * most others are too, so the thread parks a few times per batch. A combined future
	 * ({@code CompletableFuture.allOf}) would cost two objects per command and a
	 * completion chain run on the event loops, the threads pipelined SETs are short of.
	 * @return whether every command was answered
	 */
	private static boolean await(NodeBatch batch, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (RedisFuture<?> future : batch.futures) {
			if (future.isDone()) {
				continue;
			}
			try {
				future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException ex) {
				// Answered with an error: looked at on its own once all are in.
			}
			catch (TimeoutException ex) {
				return false;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new RedisSystemException("Interrupted while waiting for Redis", ex);
			}
		}
		return true;
	}

	/**
	 * Counts the replies in command order. Should any command have failed, the others are
	 * still counted, error replies as rejected, unanswered or lost commands as
	 * unconfirmed, and the first failure is thrown.
	 */
	private static void tallyInOrder(Pass pass, NodeBatch batch, Tally tally, Duration timeout) {
		RuntimeException first = null;
		for (int i = 0; i < batch.futures.length; i++) {
			RedisFuture<?> future = batch.futures[i];
			if (!future.isDone()) {
				tally.unconfirmed(1);
				if (first == null) {
					first = new QueryTimeoutException("Redis did not answer within " + timeout
							+ " (spring.data.redis.timeout) a command of a pipeline sent by node");
				}
				continue;
			}
			Throwable failure = NodeBatch.failure(future);
			if (failure != null) {
				if (failure instanceof RedisCommandExecutionException) {
					tally.rejected();
				}
				else {
					tally.unconfirmed(1);
				}
				if (first == null) {
					first = translate(failure);
				}
				continue;
			}
			Object reply = future.toCompletableFuture().getNow(null);
			pass.command(batch.from + i)
				.count((reply instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : reply, tally);
		}
		if (first != null) {
			throw first;
		}
	}

	private static RuntimeException translate(Throwable failure) {
		DataAccessException translated = (failure instanceof Exception ex) ? EXCEPTIONS.convert(ex) : null;
		if (translated != null) {
			return translated;
		}
		return (failure instanceof RuntimeException runtime) ? runtime
				: new RedisSystemException(failure.getMessage(), failure);
	}

	private static int maxRedirects(LettuceConnectionFactory factory) {
		RedisClusterConfiguration cluster = factory.getClusterConfiguration();
		Integer configured = (cluster != null) ? cluster.getMaxRedirects() : null;
		return (configured != null) ? configured : DEFAULT_MAX_REDIRECTS;
	}

	@Override
	public void destroy() {
		this.senders.shutdownNow();
	}

}
