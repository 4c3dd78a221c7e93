package dev.pipelininglab.web;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.Sharing;
import dev.pipelininglab.run.KeyWalk;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.Ratio;
import org.jspecify.annotations.Nullable;

/**
 * Checks the parameters whose rules depend on the operation or the mode: {@code ratio},
 * {@code connector} and {@code connection}, and the key walk's {@code keys},
 * {@code pattern} and {@code seed}; says what a combination cannot do.
 */
final class LoadParameters {

	private LoadParameters() {
	}

	/** How a mixed run interleaves SET and GET: one load shape. */
	static Ratio ratio(Operation operation, @Nullable String text) {
		if (text == null) {
			return Ratio.DEFAULT;
		}
		String name = ApiParameter.RATIO.parameterName();
		if (!operation.takesRatio()) {
			throw new InvalidParameterException(name,
					"must be left out: it applies to op=mixed only, not " + operation.label());
		}
		return Ratio.parse(text)
			.orElseThrow(
					() -> new InvalidParameterException(name, "must be W:R (SETs to GETs) with each side from 1 to "
							+ Ratio.MAX_SIDE + ", e.g. 1:10, got '" + text + "'"));
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

	/** The run's key walk; null when none is given: item i on key i. */
	static @Nullable KeyWalk walk(Operation operation, long count, RunParams params, LabSettings lab) {
		if (params.keys() == null && params.pattern() == null && params.seed() == null) {
			return null;
		}
		if (!operation.takesKeyWalk()) {
			String given = (params.keys() != null) ? ApiParameter.KEYS.parameterName() : (params.pattern() != null)
					? ApiParameter.PATTERN.parameterName() : ApiParameter.SEED.parameterName();
			throw new InvalidParameterException(given,
					"must be left out: " + operation.label()
							+ (operation.hasKey() ? " works on one key" : " has no key") + "; it applies to "
							+ ApiParameter.KEYS.appliesTo() + " only");
		}
		long size = (params.keys() != null) ? ApiParameter.KEYS.check(lab, params.keys()) : count;
		String label = (params.pattern() != null) ? params.pattern() : KeyWalk.Pattern.SEQUENTIAL.label();
		KeyWalk.Pattern pattern = KeyWalk.Pattern.fromLabel(label)
			.orElseThrow(() -> new InvalidParameterException(ApiParameter.PATTERN.parameterName(),
					"must be sequential, uniform or gaussian, got '" + label + "'"));
		KeyWalk walk = new KeyWalk(size, pattern, ApiParameter.SEED.check(lab, params.seed()));
		int clients = (params.clients() != null) ? params.clients() : 1;
		if (operation.writesKeys() && clients > 1 && walk.repeatsKeys(count)) {
			throw new InvalidParameterException(ApiParameter.CLIENTS.parameterName(),
					"must be 1 for a SET run whose items share keys (keys below count, or a uniform or gaussian"
							+ " pattern): clients would race on the same keys, so the last write to a key, which"
							+ " the read-back checks, would not be defined");
		}
		return walk;
	}

}
