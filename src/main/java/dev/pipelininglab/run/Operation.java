package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/** The Redis command a run sends, once per item. */
public enum Operation {

	SET, GET, RPOP,

	/**
	 * No key at all: the command the Redis docs' own pipelining benchmark and the
	 * go-redis example use.
	 */
	PING,

	/** Fills the demo list so RPOP has something to pop. */
	RPUSH;

	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static Optional<Operation> fromLabel(String label) {
		return Arrays.stream(values()).filter((op) -> op.label().equalsIgnoreCase(label)).findFirst();
	}

}
