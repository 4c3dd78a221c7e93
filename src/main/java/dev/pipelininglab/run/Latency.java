package dev.pipelininglab.run;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonValue;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * Round-trip latency percentiles of one timed pass in ms; the fields: docs/api.md.
 * {@code histogram} stays in this process: a fleet adds its members' histograms rather
 * than averaging their percentiles.
 */
public record Latency(Per per, long samples, double p50, double p90, double p99, double p999, double max,
		@JsonIgnore @Nullable Histogram histogram) {

	/** The percentiles of {@code histogram}, samples in nanoseconds. */
	public static Latency of(Per per, Histogram histogram) {
		return new Latency(per, histogram.getTotalCount(), millis(histogram.getValueAtPercentile(50)),
				millis(histogram.getValueAtPercentile(90)), millis(histogram.getValueAtPercentile(99)),
				millis(histogram.getValueAtPercentile(99.9)), millis(histogram.getMaxValue()), histogram);
	}

	private static double millis(long nanos) {
		// Microsecond resolution: the histogram keeps three significant digits anyway.
		return Math.round(nanos / 1_000.0) / 1_000.0;
	}

	public enum Per {

		COMMAND, BATCH, REQUEST;

		@JsonValue
		public String label() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
