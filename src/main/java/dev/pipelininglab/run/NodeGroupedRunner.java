package dev.pipelininglab.run;

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

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.MasterConnections;
import dev.pipelininglab.redis.NodeConnections;
import dev.pipelininglab.redis.RedisReplies;
import dev.pipelininglab.redis.Topology;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.ClusterStateFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;

/**
 * A cluster pipeline the way Jedis' {@code ClusterPipeline} and redis-py's send one: one
 * pipeline per master of the keys' slots on its own connection, all at once. Spring Data
 * Redis has none ({@code executePipelined} goes through Lettuce's router on one
 * connection). MOVED and ASK replies are resent where they point, up to
 * {@code spring.data.redis.cluster.max-redirects} rounds; a node that cannot be reached
 * leaves its commands unconfirmed, never written.
 */
@Component
class NodeGroupedRunner extends BatchRunner implements DisposableBean {

	private final MasterConnections masters;

	/** A task never waits on Redis, so a pool the size of the machine keeps up. */
	private final ExecutorService senders;

	NodeGroupedRunner(MasterConnections masters) {
		super(Mode.PIPELINED_BY_NODE);
		this.masters = masters;
		CustomizableThreadFactory threads = new CustomizableThreadFactory(CpuTime.NODE_SENDERS);
		threads.setDaemon(true);
		this.senders = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()), threads);
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
		byte[][] keys = Command.arguments(null, from, to, pass::keyBytes);
		LettuceConnectionFactory factory = pass.route().lettuce();
		Duration timeout = factory.getClientConfiguration().getCommandTimeout();
		NodeBatch batch = new NodeBatch(pass, from, keys);
		try (MasterConnections.Borrowed borrowed = this.masters.borrow(factory)) {
			// A command for a node still being connected could miss its flush (lettuce
			// issues 1111, 2420); every batch, as a failover moves slots.
			NodeConnections.connect(borrowed.cluster(), false, timeout);
			send(borrowed, batch, byMaster(borrowed.cluster().getPartitions(), keys), tally);
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
				send(borrowed, batch, redirected, tally);
				tally.redirected(redirected.values().stream().mapToLong((group) -> group.size).sum());
				answered = await(batch, timeout);
			}
		}
		tallyInOrder(pass, batch, tally, timeout);
	}

	/**
	 * One group per {@code host:port}: Lettuce's topology refresh may reload the
	 * partitions with new node objects mid-loop, so two can name the same master.
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
	 * A MOVED says Lettuce's view is old, and an unknown node cannot be connected to; an
	 * ASK to a known node does not: the slot is the answering node's until it migrates.
	 */
	private static boolean stale(Partitions partitions, Map<String, NodeBatch.Group> redirected) {
		return redirected.values()
			.stream()
			.anyMatch((group) -> !group.asking || partitions.getPartition(group.host, group.port) == null);
	}

	/**
	 * Every group but the last on the pool, the last on this thread; a master that cannot
	 * be connected leaves the whole batch unconfirmed.
	 */
	private void send(MasterConnections.Borrowed borrowed, NodeBatch batch, Map<String, NodeBatch.Group> groups,
			Tally tally) {
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
				failure = new RedisSystemException("Interrupted while sending pipelines", ex);
				break;
			}
		}
		if (failure != null) {
			tally.unconfirmed(batch.futures.length);
			throw failure;
		}
	}

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
			batch.sentTo[i] = group.host;
			long item = batch.from + i;
			batch.futures[i] = pass.command(item).async(async, pass, item, batch.keys[i]);
		}
		connection.flushCommands();
	}

	/**
	 * One future after the other, as {@code LettuceFutures.awaitAll} does but past error
	 * replies (a MOVED is one); {@code CompletableFuture.allOf} would cost two objects
	 * per command and a completion chain on the event loops pipelined SETs are short of.
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
	 * In command order; error replies count rejected, unanswered or lost commands
	 * unconfirmed, and the first failure is thrown after all are counted.
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
			pass.command(batch.from + i).count(future.toCompletableFuture().getNow(null), tally);
		}
		if (first != null) {
			throw first;
		}
	}

	private static RuntimeException translate(Throwable failure) {
		return RedisReplies.translatedOr(failure, (other) -> (other instanceof RuntimeException runtime) ? runtime
				: new RedisSystemException(other.getMessage(), other));
	}

	private static int maxRedirects(LettuceConnectionFactory factory) {
		RedisClusterConfiguration cluster = factory.getClusterConfiguration();
		Integer configured = (cluster != null) ? cluster.getMaxRedirects() : null;
		return (configured != null) ? configured : ClusterClientOptions.DEFAULT_MAX_REDIRECTS;
	}

	@Override
	public void destroy() {
		this.senders.shutdownNow();
	}

}
