package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.pipelininglab.redis.KeySpace;
import org.jspecify.annotations.Nullable;

/**
 * The Redis command a run sends, once per item. INCR, HSET, SADD, ZADD and LPUSH are
 * redis-benchmark's default tests and, like there, each works on one key of its own.
 */
public enum Operation {

	SET, GET, RPOP,

	/**
	 * No key at all: the command the Redis docs' own pipelining benchmark and the
	 * go-redis example use.
	 */
	PING,

	/** Fills the demo list so RPOP has something to pop. */
	RPUSH,

	/** Increments one counter once per item, so it ends at the number of INCRs sent. */
	INCR,

	/** Sets field {@code field:<i>} of one hash to the item's value. */
	HSET,

	/** Adds the item's value to one set. */
	SADD,

	/** Adds the item's value to one sorted set with the item's index as score. */
	ZADD,

	/** Pushes the item's value onto the head of the demo list. */
	LPUSH;

	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** Whether the command carries values, so {@code valueSize} applies. */
	public boolean carriesValues() {
		return this != PING && this != INCR;
	}

	/**
	 * The one key every command of the run works on, or null when each item has a key of
	 * its own (SET, GET) or there is none (PING).
	 */
	public @Nullable String key(KeySpace keys) {
		return switch (this) {
			case SET, GET, PING -> null;
			case RPOP, RPUSH, LPUSH -> keys.listKey();
			case INCR -> keys.counterKey();
			case HSET -> keys.hashKey();
			case SADD -> keys.setKey();
			case ZADD -> keys.sortedSetKey();
		};
	}

	public static Optional<Operation> fromLabel(String label) {
		return Arrays.stream(values()).filter((op) -> op.label().equals(label)).findFirst();
	}

}
