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

	/** One multi-key command per batch: MSET, MGET, or {@code RPOP key count}. */
	MULTI_KEY("multi-key");

	private final String label;

	Mode(String label) {
		this.label = label;
	}

	@JsonValue
	public String label() {
		return this.label;
	}

	public static Optional<Mode> fromLabel(String label) {
		return Arrays.stream(values()).filter((mode) -> mode.label.equalsIgnoreCase(label)).findFirst();
	}

}
