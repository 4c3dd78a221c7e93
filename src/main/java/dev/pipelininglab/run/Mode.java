package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/** How the commands of a run travel to Redis. */
public enum Mode {

	/** One blocking call per command: one round trip each. */
	LOOP("loop"),

	/** {@code StringRedisTemplate.executePipelined}, one pipeline per batch. */
	PIPELINED("pipelined"),

	/**
	 * Cluster only: each batch grouped by the master that owns each key's slot, one
	 * manually flushed pipeline per master on that master's own connection, all masters
	 * at once, replies merged back in command order.
	 */
	PIPELINED_BY_NODE("pipelined-by-node"),

	/** One multi-key command per batch: MSET, MGET, or {@code RPOP key count}. */
	MULTI_KEY("multi-key"),

	/**
	 * MSET or MGET per batch on keys that share one hash tag, so on a cluster every key
	 * is in one slot: no split, but one master holds them all.
	 */
	MULTI_KEY_HASHTAG("multi-key-hashtag"),

	/**
	 * A fixed server-side Lua script run with EVALSHA once per batch: the Redis docs'
	 * "pipelining vs scripting".
	 */
	SCRIPT("script"),

	/**
	 * Lettuce's async API on a connection of its own with manual flushing: the client's
	 * own ceiling.
	 */
	ASYNC("async");

	private final String label;

	Mode(String label) {
		this.label = label;
	}

	@JsonValue
	public String label() {
		return this.label;
	}

	public static Optional<Mode> fromLabel(String label) {
		return Arrays.stream(values()).filter((mode) -> mode.label.equals(label)).findFirst();
	}

}
