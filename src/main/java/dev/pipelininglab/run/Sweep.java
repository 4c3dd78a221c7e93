package dev.pipelininglab.run;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * Pipelined throughput against pipeline length, one result per batch size on the same
 * keys and values; each result's {@code server.peakOutputBufferBytes} shows the reply
 * memory behind the Redis docs' advice of batches of about 10k.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(value = "recommendation", allowGetters = true)
public record Sweep(Operation operation, long count, String topology, List<RunResult> results, String summary,
		@Nullable Map<String, String> settings) {

	/** Never stored, so it cannot disagree with the results. */
	@JsonProperty("recommendation")
	public @Nullable Recommendation recommendation() {
		return Recommendation.of(this.results);
	}

	static String summary(List<RunResult> results) {
		if (results.isEmpty()) {
			return "Nothing ran.";
		}
		RunResult fastest = Recommendation.best(results, (r) -> r.timing().opsPerSecond());
		RunResult smallest = results.stream().min(Comparator.comparingInt((r) -> r.ran().batchSize())).orElseThrow();
		StringBuilder sentence = new StringBuilder(String.format(Locale.ROOT, "Fastest at batch size %,d: %,.0f ops/s",
				fastest.ran().batchSize(), fastest.timing().opsPerSecond()));
		if (smallest != fastest && smallest.timing().opsPerSecond() > 0) {
			sentence.append(String.format(Locale.ROOT, ", %.1f× batch size %,d (%,.0f ops/s)",
					fastest.timing().opsPerSecond() / smallest.timing().opsPerSecond(), smallest.ran().batchSize(),
					smallest.timing().opsPerSecond()));
		}
		sentence.append('.');
		return LoopCeiling.after(sentence, results);
	}

}
