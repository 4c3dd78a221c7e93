package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import dev.pipelininglab.redis.RouteCache;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.KeyExpiryProperties;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.NodeConnections;
import dev.pipelininglab.redis.Reconnects;
import dev.pipelininglab.redis.ReplicaSync;
import dev.pipelininglab.redis.Route;
import dev.pipelininglab.redis.ServerCounters;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ExpirationOptions;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.stereotype.Component;

/**
 * Untimed set-up and read-back around measured runs, pipelined in batches on the direct
 * connection whatever route the run takes, so it stays quick at any count: a command per
 * batch where Redis takes many keys in one (EXISTS, UNLINK), and a read-back that gives
 * what it reads the lab's expiry in the same command. Reads wait for replicas that serve
 * them to catch up first.
 */
@Component
record RunKeys(RouteCache routes, PipelinedRunner pipelined, ReplicaSync replicas, ServerCounters servers,
		KeyExpiryProperties expiry, Reconnects reconnects) {

	/** How many of the keys a pass writes are looked for before it clears them. */
	static final int PROBE = 100;

	/**
	 * Only the keys a pass is about to write, not the rest of a larger key space: one
	 * UNLINK per batch of keys (a cluster splits it by slot).
	 */
	void deleteKeys(KeySpace keys, BitSet indexes, int batchSize, RunObserver observer, boolean probe) {
		if (probe && !anyExists(keys, indexes)) {
			return;
		}
		forEachBatch(indexes, batchSize, (batch) -> {
			RunCancelledException.throwIf(observer);
			pipeline((connection) -> connection.keyCommands().unlink(keyBytes(keys, batch)));
			observer.commandsDone(batch.length);
		});
	}

	void writeKeys(KeySpace keys, long count, int batchSize, int valueSize, RunObserver observer, Written written) {
		fill(Operation.SET, keys, count, batchSize, valueSize, observer, written);
		this.replicas.await();
	}

	void refillList(KeySpace keys, long count, int batchSize, int valueSize, RunObserver observer) {
		delete(keys.listKey());
		fill(Operation.RPUSH, keys, count, batchSize, valueSize, observer, new Written());
	}

	void delete(String key) {
		this.routes.primary().template().unlink(key);
	}

	private void fill(Operation operation, KeySpace keys, long count, int batchSize, int valueSize,
			RunObserver observer, Written written) {
		Route route = this.routes.primary();
		FlushPolicy policy = Objects.requireNonNull(route.flushPolicy(), "the primary route is Lettuce's");
		RunSpec spec = new RunSpec(operation, Mode.PIPELINED, policy, count, batchSize, 0, null, null, 1,
				Workload.of(valueSize, 1, Long.MAX_VALUE), RunSpec.Senders.DEFAULT, null);
		Pass pass = new Pass(spec, keys, route);
		Tally tally = new Tally(0);
		// The workload may have shrunk the batches to its byte budget.
		for (long from = 0; from < count; from += spec.batchSize()) {
			RunCancelledException.throwIf(observer);
			long to = Math.min(count, from + spec.batchSize());
			written.items(spec, keys, from, to);
			this.pipelined.run(pass, from, to, tally);
			observer.commandsDone(to - from);
		}
	}

	/** Text that is no integer reads as 0: INCR then gets Redis' own refusal. */
	long counter(KeySpace keys) {
		this.replicas.await();
		String value = this.routes.primary().template().opsForValue().get(keys.counterKey());
		try {
			return (value != null) ? Long.parseLong(value) : 0;
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	/**
	 * Counts the items of {@code ranges} whose value is there in full; a mix reads back
	 * its SET items only, in read-back order. With {@code expiring}, a key per item is
	 * read with GETEX (Redis 6.2), which gives it the lab's expiry in the same command,
	 * and {@code expiring} no longer counts it among the keys to expire.
	 */
	ReadBack verify(Command command, KeySpace keys, List<ClientThreads.Reach> ranges, int batchSize, int valueSize,
			Tally sample, RunObserver observer, @Nullable Written expiring) {
		this.replicas.await();
		Command.Verified written = (Command.Verified) command;
		String one = command.key(keys);
		byte[] key = (one != null) ? KeySpace.bytes(one) : new byte[0];
		Expiration expiry = command.keyPerItem() ? readBackExpiry(expiring) : null;
		BitSet expired = new BitSet();
		ReadBack found = ReadBack.NONE;
		for (ClientThreads.Reach range : ranges) {
			long count = written.readBackCount(range.to());
			for (long from = written.readBackCount(range.from()); from < count; from += batchSize) {
				RunCancelledException.throwIf(observer);
				long to = Math.min(count, from + batchSize);
				long start = from;
				long i = start;
				for (Object reply : pipeline((connection) -> {
					if (!command.keyPerItem()) {
						written.readBack(connection, keys, key, valueSize, start, to);
						return;
					}
					for (long index = start; index < to; index++) {
						readBack(connection, keys.keyBytes(written.readBackItem(index, count)), expiry);
					}
				})) {
					// LRANGE answers the whole batch in one reply; the others one per
					// item.
					for (Object value : (reply instanceof List<?> list) ? list : Collections.singletonList(reply)) {
						long item = written.readBackItem(i++, count);
						if (expiry != null) {
							expired.set(Math.toIntExact(item));
						}
						byte[] expected = keys.valueBytes(item, valueSize);
						found = found.plus(one(written.matches(value, expected, item), value, sample,
								written.samplesReply() ? value : new String(expected, StandardCharsets.US_ASCII)));
					}
				}
				// LRANGE answers only the positions the list still has.
				found = found.plus(new ReadBack(0, to - i, 0));
				observer.commandsDone(to - start);
			}
		}
		if (expiring != null) {
			expiring.expired(keys, expired);
		}
		return found;
	}

	/** Each key written must hold its last writer's value; others do not count. */
	ReadBack verifyWalk(KeyWalk walk, KeySpace keys, List<ClientThreads.Reach> ranges, int batchSize, int valueSize,
			Tally sample, RunObserver observer, @Nullable Written expiring) {
		this.replicas.await();
		int[] last = walk.lastWriters(ranges);
		Expiration expiry = readBackExpiry(expiring);
		BitSet expired = new BitSet();
		ReadBack found = ReadBack.NONE;
		for (int from = 0; from < last.length; from += batchSize) {
			RunCancelledException.throwIf(observer);
			int[] written = IntStream.range(from, Math.min(last.length, from + batchSize))
				.filter((index) -> last[index] >= 0)
				.toArray();
			List<Object> replies = send(keys, written, (connection, key) -> readBack(connection, key, expiry));
			if (expiry != null) {
				Arrays.stream(written).forEach(expired::set);
			}
			for (int i = 0; i < written.length; i++) {
				Object value = replies.get(i);
				found = found.plus(one(Arrays.equals(bytes(value), keys.valueBytes(last[written[i]], valueSize)), value,
						sample, value));
			}
			observer.commandsDone(Math.min(last.length, from + batchSize) - from);
		}
		if (expiring != null) {
			expiring.expired(keys, expired);
		}
		return found;
	}

	/** GET, or GETEX where it also gives the key its expiry. */
	static void readBack(RedisConnection connection, byte[] key, @Nullable Expiration expiry) {
		if (expiry != null) {
			connection.stringCommands().getEx(key, expiry);
		}
		else {
			connection.stringCommands().get(key);
		}
	}

	/** Null on servers before 6.2, which have no GETEX: an EXPIRE per key follows. */
	private @Nullable Expiration readBackExpiry(@Nullable Written expiring) {
		return (expiring != null && this.servers.atLeast("6.2"))
				? Expiration.seconds(this.expiry.expireAfter().toSeconds()) : null;
	}

	/** One item read back; {@code shown} goes into the sample when it matched. */
	private static ReadBack one(boolean matches, @Nullable Object value, Tally sample, @Nullable Object shown) {
		if (matches) {
			sample.value(String.valueOf(Command.text(shown)));
			return new ReadBack(1, 0, 0);
		}
		return (value == null || Boolean.FALSE.equals(value)) ? new ReadBack(0, 1, 0) : new ReadBack(0, 0, 1);
	}

	void expireKeys(KeySpace keys, BitSet indexes, int batchSize, Duration after,
			ExpirationOptions.Condition condition) {
		long seconds = after.toSeconds();
		forEachBatch(indexes, batchSize, (batch) -> send(keys, batch,
				(connection, key) -> connection.keyCommands().expire(key, seconds, condition)));
	}

	/**
	 * One EXISTS of many keys, which answers how many of them exist. A replica may not
	 * yet hold what was just written (a warm-up's keys left behind under load), so where
	 * reads go to replicas the keys are deleted unasked.
	 */
	private boolean anyExists(KeySpace keys, BitSet indexes) {
		int[] first = indexes.stream().limit(PROBE).toArray();
		return (first.length > 0) && (this.replicas.readsFromReplicas()
				|| pipeline((connection) -> connection.keyCommands().exists(keyBytes(keys, first))).stream()
					.anyMatch((reply) -> reply instanceof Number number && number.longValue() > 0));
	}

	private static byte[][] keyBytes(KeySpace keys, int[] indexes) {
		return Arrays.stream(indexes).mapToObj(keys::keyBytes).toArray(byte[][]::new);
	}

	/** One command per key of {@code batch}, in one pipeline. */
	private List<Object> send(KeySpace keys, int[] batch, BiConsumer<RedisConnection, byte[]> command) {
		return pipeline((connection) -> {
			for (int index : batch) {
				command.accept(connection, keys.keyBytes(index));
			}
		});
	}

	/**
	 * A cluster connection sends each command to its master; commands refused while the
	 * connection is being made are sent once it is.
	 */
	private List<Object> pipeline(Consumer<RedisConnection> commands) {
		Route route = this.routes.primary();
		return this.reconnects
			.awaiting(() -> route.template().executePipelined((RedisCallback<@Nullable Object>) (connection) -> {
				NodeConnections.connect(connection, route.lettuce());
				commands.accept(connection);
				return null;
			}));
	}

	private static void forEachBatch(BitSet indexes, int batchSize, Consumer<int[]> batch) {
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
			batch.accept(Arrays.copyOf(next, size));
		}
	}

	void expire(String key, Duration after, ExpirationOptions.Condition condition) {
		this.routes.primary()
			.template()
			.execute((RedisCallback<Boolean>) (connection) -> connection.keyCommands()
				.expire(KeySpace.bytes(key), after.toSeconds(), condition));
	}

	static byte[] bytes(@Nullable Object value) {
		if (value instanceof byte[] raw) {
			return raw;
		}
		return (value instanceof String text) ? text.getBytes(StandardCharsets.UTF_8) : new byte[0];
	}

}
