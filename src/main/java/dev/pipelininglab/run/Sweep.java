package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * Pipelined throughput against pipeline length: one result per batch size, same keys and
 * values for each. Each result's {@code server.peakOutputBufferBytes} shows the reply
 * memory the server held at that length, which is why the Redis docs advise batches of
 * about 10k rather than one pipeline of everything.
 *
 * The answer adds {@code recommendation}, derived from the results (see
 * {@link Recommendation}).
 *
 * @param settings the client tunings in effect that differ from Spring Boot's defaults
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(value = "recommendation", allowGetters = true)
public record Sweep(Operation operation, long count, String topology, List<RunResult> results,
		@Nullable Map<String, String> settings) {

	/**
	 * The batch size to use, from the results; never stored, so it cannot disagree with
	 * them.
	 */
	@JsonProperty("recommendation")
	public @Nullable Recommendation recommendation() {
		return Recommendation.of(this.results);
	}

}
