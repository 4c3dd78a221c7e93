package dev.pipelininglab.redis;

import dev.pipelininglab.PlainNumbers;

import org.springframework.data.redis.connection.lettuce.LettuceConnection.PipeliningFlushPolicy;

/** When Lettuce writes pipelined commands to the socket, as {@code buffered-<n>} etc. */
public record FlushPolicy(Kind kind, int bufferSize) {

	public enum Kind {

		FLUSH_EACH_COMMAND, FLUSH_ON_CLOSE, BUFFERED

	}

	public static final FlushPolicy FLUSH_EACH_COMMAND = new FlushPolicy(Kind.FLUSH_EACH_COMMAND, 1);

	public static final FlushPolicy FLUSH_ON_CLOSE = new FlushPolicy(Kind.FLUSH_ON_CLOSE, 0);

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

	// Named valueOf so Spring's conversion binds it from properties and parameters
	// without a converter.
	public static FlushPolicy valueOf(String text) {
		if (text.equals("flush-each-command")) {
			return FLUSH_EACH_COMMAND;
		}
		if (text.equals("flush-on-close")) {
			return FLUSH_ON_CLOSE;
		}
		if (text.startsWith(BUFFERED_PREFIX)) {
			try {
				return buffered(PlainNumbers.parseInt(text.substring(BUFFERED_PREFIX.length())));
			}
			catch (IllegalArgumentException ex) {
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
