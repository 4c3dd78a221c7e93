package dev.pipelininglab.web;

import dev.pipelininglab.run.KeyWalk;
import dev.pipelininglab.run.Operation;
import org.jspecify.annotations.Nullable;

/** Checks {@code keys}, {@code pattern} and {@code seed}: the run's key walk. */
final class KeyWalkParameters {

	private KeyWalkParameters() {
	}

	/** Null when none is given: item i on key i. */
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
