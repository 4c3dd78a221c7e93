package dev.pipelininglab.web;

import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.Ratio;
import org.jspecify.annotations.Nullable;

/** Checks {@code ratio}, how a mixed run interleaves SET and GET: one load shape. */
final class RatioParameter {

	private RatioParameter() {
	}

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

}
