package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/** How the commands of a run travel to Redis: each has its {@link BatchRunner}. */
public enum Mode {

	LOOP, PIPELINED, PIPELINED_BY_NODE, MULTI_KEY, MULTI_KEY_HASHTAG, SCRIPT, ASYNC, TRANSACTION, PIPELINED_TRANSACTION,
	TRANSACTION_HASHTAG, REACTIVE;

	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/**
	 * Blocking template calls may choose a shared or a pooled connection; pipelines,
	 * transactions and async batches take a dedicated one, reactive the shared one.
	 */
	public boolean choosesConnection() {
		return switch (this) {
			case LOOP, MULTI_KEY, MULTI_KEY_HASHTAG, SCRIPT -> true;
			case PIPELINED, PIPELINED_BY_NODE, ASYNC, TRANSACTION, PIPELINED_TRANSACTION, TRANSACTION_HASHTAG,
					REACTIVE ->
				false;
		};
	}

	public static Optional<Mode> fromLabel(String label) {
		return Arrays.stream(values()).filter((mode) -> mode.label().equals(label)).findFirst();
	}

}
