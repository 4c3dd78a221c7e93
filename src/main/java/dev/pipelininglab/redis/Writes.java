package dev.pipelininglab.redis;

import java.util.Locale;

/**
 * How Lettuce hands a pipeline's buffered commands to Netty when it flushes: as one
 * message per flush (the lab's {@code lettuce.BatchWritingEndpoint}) or one message per
 * command (Lettuce's own endpoint). Only flush-on-close and buffered policies buffer
 * anything; under flush-each-command both are the same.
 */
public enum Writes {

	PER_FLUSH, PER_COMMAND;

	/** As written in properties and answers: {@code per-flush} or {@code per-command}. */
	public String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/** Reads the written form, {@code per-flush} or {@code per-command}. */
	public static java.util.Optional<Writes> fromLabel(String label) {
		return java.util.Arrays.stream(values()).filter((writes) -> writes.label().equals(label)).findFirst();
	}

	@Override
	public String toString() {
		return label();
	}

}
