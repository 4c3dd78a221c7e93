package dev.pipelininglab.run;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

/** Round-trip latency percentiles of one timed pass in ms; the fields: docs/api.md. */
public record Latency(Per per, long samples, double p50, double p90, double p99, double p999, double max) {

	public enum Per {

		COMMAND, BATCH, REQUEST;

		@JsonValue
		public String label() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
