package dev.pipelininglab.web;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import dev.pipelininglab.PlainNumbers;
import dev.pipelininglab.job.RunKind;
import dev.pipelininglab.run.Mode;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The body of {@code POST /runs}: {@code kind} picks the GET endpoint it mirrors
 * ({@code single}, {@code compare}, {@code sweep}), {@code operation}, {@code mode} and
 * {@code count} stand for its path, and the other fields are its query parameters
 * ({@link ApiParameter}), checked alike by {@link RunRequests}; {@code instances} alone
 * is a body field (a fleet run). Unknown and repeated fields, and fractions where a whole
 * number belongs, are refused by {@code spring.jackson.*} in application.yml.
 */
public record RunJobRequest(@Nullable String kind, @Nullable String operation, @Nullable String mode,
		@Nullable Long count, @Nullable Integer batchSize, @Nullable Integer sample, @Nullable Long ttl,
		@Nullable String flushPolicy, @JsonDeserialize(using = PlainDecimal.class) @Nullable Double rtt,
		@Nullable Integer repeat, @Nullable List<String> variants, @Nullable List<Integer> batchSizes,
		@Nullable Integer valueSize, @Nullable Integer requests, @Nullable Integer clients, @Nullable String connector,
		@Nullable String connection, @Nullable Integer rate, @Nullable Integer duration, @Nullable String ratio,
		@Nullable Long keys, @Nullable String pattern, @Nullable Long seed, @Nullable Integer instances) {

	/** The query parameters these fields stand for, so a body is checked like a GET. */
	public RunParams params() {
		return new RunParams(this.batchSize, this.sample, this.ttl, this.flushPolicy, this.rtt, this.repeat,
				(this.variants != null) ? String.join(",", this.variants) : null,
				(this.batchSizes != null) ? String.join(",", this.batchSizes.stream().map(String::valueOf).toList())
						: null,
				this.valueSize, this.requests, this.clients, this.connector, this.connection, this.rate, this.duration,
				// A job's table is asked for when it is read: GET /runs/{id}?columns=.
				this.ratio, this.keys, this.pattern, this.seed, null);
	}

	/** The GET endpoint it mirrors: named, or told by variants or batchSizes. */
	RunKind runKind() {
		RunKind kind = (this.kind != null)
				? RunKind.fromLabel(this.kind)
					.orElseThrow(() -> new InvalidParameterException("kind",
							"must be one of single, compare, sweep, got '" + this.kind + "'"))
				: (this.variants != null) ? RunKind.COMPARE
						: (this.batchSizes != null) ? RunKind.SWEEP : RunKind.SINGLE;
		// Each entry is one variant; a loop, as Stream.findFirst throws on a null.
		for (String variant : (this.variants != null) ? this.variants : List.<String>of()) {
			if (variant == null || variant.contains(",")) {
				throw new InvalidParameterException("variants", "must have one variant per array entry, got "
						+ ((variant != null) ? "'" + variant + "'" : "null"));
			}
		}
		return kind;
	}

	Mode runMode() {
		String label = RunRequests.required("mode", this.mode);
		return Mode.fromLabel(label)
			.orElseThrow(() -> new InvalidParameterException("mode",
					"must be one of " + Arrays.stream(Mode.values()).map(Mode::label).collect(Collectors.joining(", "))
							+ ", got '" + label + "'"));
	}

	/** {@link PlainNumbers}' rule: "rtt": 1e-3 is refused as ?rtt=1e-3 is. */
	static final class PlainDecimal extends ValueDeserializer<Double> {

		@Override
		public Double deserialize(JsonParser parser, DeserializationContext context) {
			if (parser.currentToken() != JsonToken.VALUE_NUMBER_FLOAT
					&& parser.currentToken() != JsonToken.VALUE_NUMBER_INT) {
				return (Double) context.handleUnexpectedToken(Double.class, parser);
			}
			String text = parser.getString();
			try {
				return PlainNumbers.parseDouble(text);
			}
			catch (NumberFormatException ex) {
				return (Double) context.handleWeirdStringValue(Double.class, text, "not a plain decimal number");
			}
		}

	}

}
