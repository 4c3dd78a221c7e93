package dev.pipelininglab.redis;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The client library under Spring Data Redis, which calls it a connector: Lettuce (Spring
 * Boot's default) or Jedis.
 */
public enum Connector {

	/**
	 * Netty-based; one native connection can be shared by every thread, and pipelines are
	 * written as the flush policy says.
	 */
	LETTUCE("A pipeline is written as Lettuce's flush policy says (lab.pipeline.flush-policy or flushPolicy=);"
			+ " replies are read as they arrive."),

	/**
	 * Blocking sockets; a connection serves one thread at a time, so every command
	 * borrows one from the pool.
	 */
	JEDIS("Jedis has no flush policy: a pipeline's commands go into the connection's 8 KiB output buffer, which is"
			+ " written to the socket each time it fills and once more when the pipeline closes; replies are read"
			+ " only then, all at once.");

	private final String pipelineWrites;

	Connector(String pipelineWrites) {
		this.pipelineWrites = pipelineWrites;
	}

	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** How a pipeline's commands reach the socket with this connector, in words. */
	public String pipelineWrites() {
		return this.pipelineWrites;
	}

	public static Optional<Connector> fromLabel(String label) {
		return Arrays.stream(values()).filter((connector) -> connector.label().equals(label)).findFirst();
	}

	@Override
	public String toString() {
		return label();
	}

}
