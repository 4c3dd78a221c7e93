package dev.pipelininglab.web;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.Sharing;
import dev.pipelininglab.run.Mode;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@code connector} and {@code connection}, who sends a run's commands, and says
 * what each combination cannot do; kept apart from {@link RunRequests}.
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

	/**
	 * Lettuce shares one connection by default, as Spring Boot does; Jedis always pools.
	 * The choice exists only for blocking template calls: a pipeline always takes a
	 * dedicated pooled connection.
	 */
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
