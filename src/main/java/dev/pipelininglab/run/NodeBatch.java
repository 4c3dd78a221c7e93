package dev.pipelininglab.run;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import org.jspecify.annotations.Nullable;

/**
 * One batch of a {@link NodeGroupedRunner} in flight, and how MOVED and ASK regroup it.
 */
final class NodeBatch {

	final Pass pass;

	final long from;

	final byte[][] keys;

	final RedisFuture<?>[] futures;

	final String[] sentTo;

	NodeBatch(Pass pass, long from, byte[][] keys) {
		this.pass = pass;
		this.from = from;
		this.keys = keys;
		this.futures = new RedisFuture<?>[keys.length];
		this.sentTo = new String[keys.length];
	}

	/** Grouped by the node the reply names, and by ASK or MOVED. */
	static Map<String, Group> redirects(NodeBatch batch) {
		Map<String, Group> groups = new LinkedHashMap<>();
		for (int i = 0; i < batch.futures.length; i++) {
			Throwable failure = failure(batch.futures[i]);
			String reply = (failure instanceof RedisCommandExecutionException) ? failure.getMessage() : null;
			if (reply == null || !(reply.startsWith("MOVED ") || reply.startsWith("ASK "))) {
				continue;
			}
			// MOVED <slot> <host>:<port>; an empty host means the node that replied.
			String[] words = reply.split(" ");
			int colon = (words.length < 3) ? -1 : words[2].lastIndexOf(':');
			if (colon < 0) {
				continue;
			}
			String host = (colon == 0) ? batch.sentTo[i] : words[2].substring(0, colon);
			int port = Integer.parseInt(words[2].substring(colon + 1));
			boolean asking = reply.startsWith("ASK ");
			int items = batch.futures.length;
			groups
				.computeIfAbsent((asking ? "ASK " : "MOVED ") + host + ":" + port,
						(key) -> new Group(host, port, asking, items))
				.add(i);
		}
		return groups;
	}

	/** Null when it succeeded or is still running. */
	static @Nullable Throwable failure(RedisFuture<?> future) {
		Throwable failure = future.toCompletableFuture().handle((value, ex) -> ex).getNow(null);
		return (failure instanceof CompletionException wrapped && wrapped.getCause() != null) ? wrapped.getCause()
				: failure;
	}

	/** Indexes into the batch one node gets, in command order. */
	static final class Group {

		final String host;

		final int port;

		final boolean asking;

		final int[] items;

		int size;

		Group(String host, int port, boolean asking, int capacity) {
			this.host = host;
			this.port = port;
			this.asking = asking;
			this.items = new int[capacity];
		}

		void add(int item) {
			this.items[this.size++] = item;
		}

	}

}
