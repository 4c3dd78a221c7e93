package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;

import dev.pipelininglab.redis.Connections;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.NodeConnections;
import dev.pipelininglab.redis.ReplicaSync;
import dev.pipelininglab.redis.Route;
import org.jspecify.annotations.Nullable;
import java.util.Objects;
import dev.pipelininglab.redis.FlushPolicy;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.stereotype.Component;

/**
 * Untimed set-up and checking around measured runs: puts keys or the list into the state
 * a run starts from, and reads written keys back. Always pipelined in batches on the
 * direct connection, so it stays quick and bounded at any count, whatever route the
 * measured run takes. When reads go to replicas, reads wait for the replicas to have what
 * was written before them, so a GET run or a verification never reads a replica that is
 * still catching up.
 */
@Component
record DemoData(Connections connections, PipelinedRunner pipelined, ReplicaSync replicas) {

	/** How many of the keys a pass writes are looked for before it clears them. */
	static final int PROBE = 100;

	/**
	 * Removes the keys whose indexes {@code indexes} holds, in batches: the keys a pass
	 * is about to write, so it starts from absent keys without touching others of a
	 * larger key space.
	 */
	void deleteKeys(KeySpace keys, BitSet indexes, int batchSize, RunObserver observer) {
		if (!anyExists(keys, indexes)) {
			return;
		}
		forEachBatch(indexes, batchSize, (batch) -> {
			checkCancelled(observer);
			send(keys, batch, (connection, key) -> connection.keyCommands().unlink(key));
			observer.commandsDone(batch.length);
		});
	}

	/**
	 * Writes keys for GET runs to read, {@code valueSize} bytes each (0: the plain
	 * values); returns once replicas that serve reads have them too.
	 */
	void writeKeys(KeySpace keys, long count, int batchSize, int valueSize, RunObserver observer, Written written) {
		fill(Operation.SET, keys, count, batchSize, valueSize, observer, written);
		this.replicas.await();
	}

	void refillList(KeySpace keys, long count, int batchSize, int valueSize, RunObserver observer) {
		deleteList(keys);
		fill(Operation.RPUSH, keys, count, batchSize, valueSize, observer, new Written());
	}

	void deleteList(KeySpace keys) {
		delete(keys.listKey());
	}

	/** Removes the one key an operation such as HSET or INCR works on. */
	void delete(String key) {
		this.connections.primary().template().unlink(key);
	}

	private void fill(Operation operation, KeySpace keys, long count, int batchSize, int valueSize,
			RunObserver observer, Written written) {
		Route route = this.connections.primary();
		FlushPolicy policy = Objects.requireNonNull(route.flushPolicy(), "the primary route is Lettuce's");
		RunSpec spec = new RunSpec(operation, Mode.PIPELINED, policy, count, batchSize, 0, null, null, 1,
				Workload.of(valueSize, 1, Long.MAX_VALUE), RunSpec.Senders.DEFAULT, null);
		Pass pass = new Pass(spec, keys, route);
		Tally tally = new Tally(0);
		// The workload may have shrunk the batches to its byte budget.
		for (long from = 0; from < count; from += spec.batchSize()) {
			checkCancelled(observer);
			long to = Math.min(count, from + spec.batchSize());
			written.items(spec, keys, from, to);
			this.pipelined.run(pass, from, to, tally);
			observer.commandsDone(to - from);
		}
	}

	/** Set-up is untimed but can be long: a cancel stops it between its batches too. */
	private static void checkCancelled(RunObserver observer) {
		if (observer.cancelled()) {
			throw new RunCancelledException();
		}
	}

	/**
	 * The counter INCR runs increment, 0 when absent. Text that is no integer reads as 0:
	 * the run's first INCR then gets Redis' own refusal, answered like any refused
	 * command.
	 */
	long counter(KeySpace keys) {
		this.replicas.await();
		String value = this.connections.primary().template().opsForValue().get(keys.counterKey());
		try {
			return (value != null) ? Long.parseLong(value) : 0;
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	/**
	 * Reads back what items {@code 0..count-1} wrote, in batches, and counts the items
	 * whose value is there in full: SET a key holding exactly the value, HSET a field,
	 * SADD a member, ZADD a member with its index as score, LPUSH the head of the list
	 * holding the values in the reverse order of the pushes. Matching values go into
	 * {@code sample} while it has room.
	 */
	ReadBack verify(Command command, KeySpace keys, long items, int batchSize, int valueSize, Tally sample,
			RunObserver observer) {
		// A mix reads back its SET items only.
		return verify(command, keys, 0, ((Command.Verified) command).readBackCount(items), batchSize, valueSize, sample,
				observer);
	}

	/**
	 * As above, for the items a time limit let each client send: the prefix of each
	 * client's range, summed.
	 */
	ReadBack verify(Command command, KeySpace keys, List<Clients.Reach> ranges, int batchSize, int valueSize,
			Tally sample, RunObserver observer) {
		Command.Verified written = (Command.Verified) command;
		long verified = 0;
		long missing = 0;
		long changed = 0;
		for (Clients.Reach range : ranges) {
			ReadBack part = verify(command, keys, written.readBackCount(range.from()),
					written.readBackCount(range.to()), batchSize, valueSize, sample, observer);
			verified += part.verified();
			missing += part.missing();
			changed += part.changed();
		}
		return new ReadBack(verified, missing, changed);
	}

	/** Reads back the written items {@code first..count-1} (in read-back order). */
	private ReadBack verify(Command command, KeySpace keys, long first, long count, int batchSize, int valueSize,
			Tally sample, RunObserver observer) {
		Route route = this.connections.primary();
		// Reads where GET runs read: from replicas, when read-from says so, once they
		// have caught up.
		this.replicas.await();
		Command.Verified written = (Command.Verified) command;
		String one = command.key(keys);
		byte[] key = (one != null) ? KeySpace.bytes(one) : new byte[0];
		long verified = 0;
		long missing = 0;
		long changed = 0;
		for (long from = first; from < count; from += batchSize) {
			checkCancelled(observer);
			long to = Math.min(count, from + batchSize);
			long start = from;
			List<Object> replies = route.template().executePipelined((RedisCallback<@Nullable Object>) (connection) -> {
				NodeConnections.connect(connection, route.lettuce());
				written.readBack(connection, keys, key, valueSize, start, to);
				return null;
			});
			long i = start;
			for (Object reply : replies) {
				// LRANGE answers the whole batch in one reply; the others one per item.
				List<?> values = (reply instanceof List<?> list) ? list : java.util.Collections.singletonList(reply);
				for (Object value : values) {
					long item = written.readBackItem(i, count);
					byte[] expected = keys.valueBytes(item, valueSize);
					if (written.matches(value, expected, item)) {
						verified++;
						if (written.samplesReply()) {
							sample.value(text(value));
						}
						else {
							sample.value(new String(expected, StandardCharsets.US_ASCII));
						}
					}
					else if (value == null || Boolean.FALSE.equals(value)) {
						missing++;
					}
					else {
						changed++;
					}
					i++;
				}
			}
			// LRANGE answers only the positions the list still has.
			missing += (to - start) - (i - start);
			observer.commandsDone(to - start);
		}
		return new ReadBack(verified, missing, changed);
	}

	/**
	 * Reads back a run that walked a key space: each key some item wrote must hold the
	 * value of the last item that wrote it, found by replaying the walk over the items
	 * that ran ({@code ranges}); keys no item wrote are not counted at all.
	 */
	ReadBack verifyWalk(KeyWalk walk, KeySpace keys, List<Clients.Reach> ranges, int batchSize, int valueSize,
			Tally sample, RunObserver observer) {
		Route route = this.connections.primary();
		this.replicas.await();
		int[] last = walk.lastWriters(ranges);
		long verified = 0;
		long missing = 0;
		long changed = 0;
		for (int from = 0; from < last.length; from += batchSize) {
			checkCancelled(observer);
			int to = Math.min(last.length, from + batchSize);
			int start = from;
			List<Object> replies = route.template().executePipelined((RedisCallback<@Nullable Object>) (connection) -> {
				NodeConnections.connect(connection, route.lettuce());
				for (int index = start; index < to; index++) {
					if (last[index] >= 0) {
						connection.stringCommands().get(keys.keyBytes(index));
					}
				}
				return null;
			});
			int reply = 0;
			for (int index = start; index < to; index++) {
				if (last[index] < 0) {
					continue;
				}
				Object value = replies.get(reply++);
				if (java.util.Arrays.equals(bytes(value), keys.valueBytes(last[index], valueSize))) {
					verified++;
					sample.value(text(value));
				}
				else if (value == null) {
					missing++;
				}
				else {
					changed++;
				}
			}
			observer.commandsDone(to - start);
		}
		return new ReadBack(verified, missing, changed);
	}

	/**
	 * What a read-back found.
	 *
	 * @param verified items holding exactly what the run wrote
	 * @param missing items not there at all (key, field, member or list position)
	 * @param changed items there with another value: written over by someone else
	 */
	record ReadBack(long verified, long missing, long changed) {
	}

	/**
	 * Gives the keys whose indexes {@code indexes} holds an expiry, pipelined in batches
	 * on the direct connection (a cluster connection sends each to its master), outside
	 * any timed pass.
	 */
	void expireKeys(KeySpace keys, BitSet indexes, int batchSize, Duration after) {
		long seconds = after.toSeconds();
		forEachBatch(indexes, batchSize,
				(batch) -> send(keys, batch, (connection, key) -> connection.keyCommands().expire(key, seconds)));
	}

	/** Whether any of the first {@value #PROBE} keys of {@code indexes} exists. */
	private boolean anyExists(KeySpace keys, BitSet indexes) {
		int[] first = indexes.stream().limit(PROBE).toArray();
		return (first.length > 0)
				&& send(keys, first, (connection, key) -> connection.keyCommands().exists(key)).stream()
					.anyMatch((reply) -> Boolean.TRUE.equals(reply)
							|| (reply instanceof Number number && number.longValue() > 0));
	}

	/**
	 * Sends one command per key of {@code batch} in one pipeline on the direct
	 * connection.
	 * @return the replies, in order
	 */
	private List<Object> send(KeySpace keys, int[] batch,
			java.util.function.BiConsumer<RedisConnection, byte[]> command) {
		Route route = this.connections.primary();
		return route.template().executePipelined((RedisCallback<@Nullable Object>) (connection) -> {
			NodeConnections.connect(connection, route.lettuce());
			for (int index : batch) {
				command.accept(connection, keys.keyBytes(index));
			}
			return null;
		});
	}

	/** The set indexes of {@code indexes}, {@code batchSize} at a time, in order. */
	private static void forEachBatch(BitSet indexes, int batchSize, java.util.function.Consumer<int[]> batch) {
		int[] next = new int[batchSize];
		int size = 0;
		for (int index = indexes.nextSetBit(0); index >= 0; index = indexes.nextSetBit(index + 1)) {
			next[size++] = index;
			if (size == batchSize) {
				batch.accept(next.clone());
				size = 0;
			}
		}
		if (size > 0) {
			batch.accept(java.util.Arrays.copyOf(next, size));
		}
	}

	/** Gives the one key an operation such as HSET works on an expiry. */
	void expire(String key, Duration after) {
		this.connections.primary().template().expire(key, after);
	}

	static byte[] bytes(@Nullable Object value) {
		if (value instanceof byte[] raw) {
			return raw;
		}
		return (value instanceof String text) ? text.getBytes(StandardCharsets.UTF_8) : new byte[0];
	}

	private static String text(Object value) {
		return (value instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : String.valueOf(value);
	}

}
