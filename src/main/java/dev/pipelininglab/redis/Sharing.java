package dev.pipelininglab.redis;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/** How blocking template calls get a connection ({@code connection=}). */
public enum Sharing {

	SHARED, POOLED;

	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static Optional<Sharing> fromLabel(String label) {
		return Arrays.stream(values()).filter((sharing) -> sharing.label().equals(label)).findFirst();
	}

	@Override
	public String toString() {
		return label();
	}

}
