package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * Pipelined throughput against pipeline length: one result per batch size, same keys and
 * values for each. Each result's {@code server.peakOutputBufferBytes} shows the reply
 * memory the server held at that length, which is why the Redis docs advise batches of
 * about 10k rather than one pipeline of everything.
 *
 * @param settings the client tunings in effect that differ from Spring Boot's defaults
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Sweep(Operation operation, long count, String topology, List<RunResult> results,
		@Nullable Map<String, String> settings) {
}
