package dev.pipelininglab.redis;

import java.util.Locale;

import dev.pipelininglab.PlainNumbers;

import org.springframework.data.redis.connection.lettuce.LettuceConnection.PipeliningFlushPolicy;

/**
 * When Lettuce writes pipelined commands to the socket: after each command, once when the
 * pipeline closes, or every {@code bufferSize} commands. Written as
 * {@code flush-each-command}, {@code flush-on-close} or {@code buffered-<n>} in
 * properties, request parameters and answers alike.
 */
public record FlushPolicy(Kind kind, int bufferSize) {

	public enum Kind {

		FLUSH_EACH_COMMAND, FLUSH_ON_CLOSE, BUFFERED

	}

	public static final FlushPolicy FLUSH_EACH_COMMAND = new FlushPolicy(Kind.FLUSH_EACH_COMMAND, 1);

	public static final FlushPolicy FLUSH_ON_CLOSE = new FlushPolicy(Kind.FLUSH_ON_CLOSE, 0);

	/**
	 * The largest buffer a policy may name: the largest batch the lab allows
	 * ({@code lab.limits.max-batch-size} is at most this). A larger buffer would only be
	 * flush-on-close under another name, and another connection route.
	 */
	public static final int MAX_BUFFER_SIZE = 1_000_000;

	private static final String BUFFERED_PREFIX = "buffered-";

	public FlushPolicy {
		if (kind == Kind.BUFFERED && (bufferSize < 1 || bufferSize > MAX_BUFFER_SIZE)) {
			throw new IllegalArgumentException(
					"buffered flush policy needs a buffer size between 1 and " + MAX_BUFFER_SIZE);
		}
	}

	public static FlushPolicy buffered(int bufferSize) {
		return new FlushPolicy(Kind.BUFFERED, bufferSize);
	}

	/**
	 * Parses the written form. Named {@code valueOf} so Spring's conversion service binds
	 * it from properties and request parameters without a registered converter.
	 */
	public static FlushPolicy valueOf(String text) {
		// Exactly as written: one rule for a value wherever it arrives (query, JSON,
		// settings).
		String value = text;
		if (value.equals("flush-each-command")) {
			return FLUSH_EACH_COMMAND;
		}
		if (value.equals("flush-on-close")) {
			return FLUSH_ON_CLOSE;
		}
		if (value.startsWith(BUFFERED_PREFIX)) {
			try {
				return buffered(PlainNumbers.parseInt(value.substring(BUFFERED_PREFIX.length())));
			}
			catch (IllegalArgumentException ex) {
				// falls through to the message that lists the accepted forms
			}
		}
		throw new IllegalArgumentException("Unknown flush policy '" + text
				+ "': use flush-each-command, flush-on-close or buffered-<n> with n from 1 to " + MAX_BUFFER_SIZE
				+ " (e.g. buffered-1000)");
	}

	public PipeliningFlushPolicy toLettuce() {
		return switch (this.kind) {
			case FLUSH_EACH_COMMAND -> PipeliningFlushPolicy.flushEachCommand();
			case FLUSH_ON_CLOSE -> PipeliningFlushPolicy.flushOnClose();
			case BUFFERED -> PipeliningFlushPolicy.buffered(this.bufferSize);
		};
	}

	@Override
	public String toString() {
		return switch (this.kind) {
			case FLUSH_EACH_COMMAND -> "flush-each-command";
			case FLUSH_ON_CLOSE -> "flush-on-close";
			case BUFFERED -> BUFFERED_PREFIX + this.bufferSize;
		};
	}

}
