package dev.pipelininglab.job;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/** What a job runs; each kind mirrors a GET endpoint: a single run, /compare, /sweep. */
public enum RunKind {

	SINGLE, COMPARE, SWEEP;

	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static Optional<RunKind> fromLabel(String label) {
		return Arrays.stream(values()).filter((kind) -> kind.label().equals(label)).findFirst();
	}

}
