package dev.pipelininglab.run;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Round-trip latency percentiles of one timed pass, from an HdrHistogram (see
 * {@link LatencyRecorder}), in milliseconds.
 *
 * @param per what one sample is: a command (the loop), a batch (pipelines, multi-key
 * commands, scripts, async: from the start of the batch to its last reply) or a request
 * (fan-out: the whole run of {@code count} items, repeated {@code requests} times)
 * @param samples how many round trips were recorded
 * @param p50 median
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param p999 99.9th percentile
 * @param max the slowest sample
 */
public record Latency(Per per, long samples, double p50, double p90, double p99, double p999, double max) {

	/** What one latency sample measures. */
	public enum Per {

		COMMAND, BATCH, REQUEST;

		@JsonValue
		public String label() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
