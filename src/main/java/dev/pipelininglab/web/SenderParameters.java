package dev.pipelininglab.web;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.Sharing;
import dev.pipelininglab.run.Mode;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@code connector} and {@code connection}, and says what a combination cannot do.
 */
final class SenderParameters {

	private SenderParameters() {
	}

	static Connector connector(@Nullable String text) {
		if (text == null) {
			return Connector.LETTUCE;
		}
		return Connector.fromLabel(text)
			.orElseThrow(
					() -> new InvalidParameterException("connector", "must be lettuce or jedis, got '" + text + "'"));
	}

	/** Lettuce shares one connection by default, as Boot does; Jedis always pools. */
	static Sharing sharing(Mode mode, Connector connector, @Nullable String text) {
		if (text == null) {
			return (connector == Connector.JEDIS) ? Sharing.POOLED : Sharing.SHARED;
		}
		Sharing sharing = Sharing.fromLabel(text)
			.orElseThrow(
					() -> new InvalidParameterException("connection", "must be shared or pooled, got '" + text + "'"));
		if (!mode.choosesConnection()) {
			throw new InvalidParameterException("connection", "must be left out for " + mode.label()
					+ " runs: it applies to loop, multi-key and script only; a pipeline always takes a dedicated"
					+ " connection from the pool");
		}
		if (connector == Connector.JEDIS && sharing == Sharing.SHARED) {
			throw new InvalidParameterException("connection",
					"must be pooled with connector=jedis: a Jedis connection serves one thread at a time,"
							+ " so Jedis has no shared connection");
		}
		return sharing;
	}

}
