package dev.pipelininglab.web;

import java.util.List;

import dev.pipelininglab.PlainNumbers;
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
