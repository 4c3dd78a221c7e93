package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/** How the commands of a run travel to Redis. */
public enum Mode {

	/** One blocking call per command: one round trip each. */
	LOOP,

	/** {@code StringRedisTemplate.executePipelined}, one pipeline per batch. */
	PIPELINED,

	/**
	 * Cluster only: each batch grouped by the master that owns each key's slot, one
	 * manually flushed pipeline per master on that master's own connection, all masters
	 * at once, replies merged back in command order.
	 */
	PIPELINED_BY_NODE,

	/** One multi-key command per batch: MSET, MGET, or {@code RPOP key count}. */
	MULTI_KEY,

	/**
	 * MSET or MGET per batch on keys that share one hash tag, so on a cluster every key
	 * is in one slot: no split, but one master holds them all.
	 */
	MULTI_KEY_HASHTAG,

	/**
	 * A fixed server-side Lua script run with EVALSHA once per batch: the Redis docs'
	 * "pipelining vs scripting".
	 */
	SCRIPT,

	/**
	 * Lettuce's async API on a connection of its own with manual flushing: the client's
	 * own ceiling.
	 */
	ASYNC,

	/**
	 * Each batch in MULTI ... EXEC through
	 * {@code StringRedisTemplate.execute(SessionCallback)}: atomic, and the queued
	 * commands travel without waiting for their QUEUED replies.
	 */
	TRANSACTION,

	/**
	 * MULTI, the batch and EXEC inside one {@code executePipelined}: atomic and one round
	 * trip.
	 */
	PIPELINED_TRANSACTION,

	/**
	 * Cluster: {@link #TRANSACTION} on keys that share one hash tag, so every batch is in
	 * one slot on one master, the only way Redis takes a transaction there.
	 */
	TRANSACTION_HASHTAG,

	/**
	 * {@code ReactiveRedisTemplate}: a batch of commands from a {@code Flux}, on the
	 * factory's shared connection, in flight together without {@code executePipelined}.
	 */
	REACTIVE;

	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/**
	 * Whether a run of this mode may choose a shared or a pooled connection: blocking
	 * template calls may; pipelines, transactions and async batches take a dedicated one,
	 * and the reactive template its factory's shared one.
	 */
	public boolean choosesConnection() {
		return switch (this) {
			case LOOP, MULTI_KEY, MULTI_KEY_HASHTAG, SCRIPT -> true;
			case PIPELINED, PIPELINED_BY_NODE, ASYNC, TRANSACTION, PIPELINED_TRANSACTION, TRANSACTION_HASHTAG,
					REACTIVE ->
				false;
		};
	}

	public static Optional<Mode> fromLabel(String label) {
		return Arrays.stream(values()).filter((mode) -> mode.label().equals(label)).findFirst();
	}

}
