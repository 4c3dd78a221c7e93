package dev.pipelininglab.redis;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/** The client library under Spring Data Redis: Lettuce or Jedis. */
public enum Connector {

	LETTUCE("A pipeline is written as Lettuce's flush policy says (lab.pipeline.flush-policy or flushPolicy=);"
			+ " replies are read as they arrive."),

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
