package dev.pipelininglab.web.job;

import java.util.List;

import dev.pipelininglab.PlainNumbers;
import dev.pipelininglab.web.RunParams;
import dev.pipelininglab.web.RunRequests;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The body of {@code POST /runs}. It mirrors the GET endpoints: {@code kind} picks the
 * endpoint (a single run like {@code /pipeget/{count}}, {@code compare} like
 * {@code /compare/{op}/{count}}, {@code sweep} like {@code /sweep/{op}/{count}}),
 * {@code operation}, {@code mode} and {@code count} stand for the path, and the other
 * fields are the query parameters, with the same names, defaults and bounds
 * ({@link RunRequests} checks them all). Unknown fields are rejected
 * ({@code spring.jackson.deserialization.fail-on-unknown-properties}), so a misspelt one
 * never silently leaves a default in place; so are a field given twice, a fraction or a
 * string where a whole number belongs ({@code spring.jackson.*} in application.yml), and
 * a {@code variants} entry holding a comma.
 *
 * @param kind {@code single}, {@code compare} or {@code sweep}; when left out,
 * {@code compare} if {@code variants} is given, {@code sweep} if {@code batchSizes} is,
 * else {@code single}
 * @param operation {@code set}, {@code get}, {@code rpop}, {@code ping}, {@code incr},
 * {@code hset}, {@code sadd}, {@code zadd}, {@code lpush}; single runs also {@code rpush}
 * @param mode single runs: {@code loop}, {@code pipelined}, {@code pipelined-by-node},
 * {@code multi-key}, {@code multi-key-hashtag}, {@code script}, {@code async},
 * {@code transaction}, {@code pipelined-transaction} or {@code reactive}
 * @param count how many commands (keys, list elements, PINGs)
 * @param variants comparisons: which variants, in order
 * @param batchSizes sweeps: which batch sizes, in order
 * @param clients threads sending at once, each on its own key range
 * @param connector {@code lettuce} or {@code jedis}
 * @param connection {@code shared} or {@code pooled}
 * @param rate offered load in commands per second over all clients
 * @param duration seconds each timed pass may send for at most
 * @param ratio {@code operation=mixed}: SETs to GETs as {@code W:R}
 * @param keys SET and GET: the key space
 * @param pattern SET and GET: {@code sequential}, {@code uniform} or {@code gaussian}
 * @param seed SET and GET: what the random patterns draw from
 * @param instances single SET and GET runs: how many app instances run it together (a
 * fleet run), this one included
 */
public record RunJobRequest(@Nullable String kind, @Nullable String operation, @Nullable String mode,
		@Nullable Long count, @Nullable Integer batchSize, @Nullable Integer sample, @Nullable Long ttl,
		@Nullable String flushPolicy, @JsonDeserialize(using = PlainDecimal.class) @Nullable Double rtt,
		@Nullable Integer repeat, @Nullable List<String> variants, @Nullable List<Integer> batchSizes,
		@Nullable Integer valueSize, @Nullable Integer requests, @Nullable Integer clients, @Nullable String connector,
		@Nullable String connection, @Nullable Integer rate, @Nullable Integer duration, @Nullable String ratio,
		@Nullable Long keys, @Nullable String pattern, @Nullable Long seed, @Nullable Integer instances) {

	/**
	 * The query parameters these fields stand for, so a body is checked exactly like a
	 * GET request.
	 */
	public RunParams params() {
		return new RunParams(this.batchSize, this.sample, this.ttl, this.flushPolicy, this.rtt, this.repeat,
				(this.variants != null) ? String.join(",", this.variants) : null,
				(this.batchSizes != null) ? String.join(",", this.batchSizes.stream().map(String::valueOf).toList())
						: null,
				this.valueSize, this.requests, this.clients, this.connector, this.connection, this.rate, this.duration,
				// A job's table is asked for when it is read: GET /runs/{id}?columns=.
				this.ratio, this.keys, this.pattern, this.seed, null);
	}

	/**
	 * A decimal number in a body follows the query parameter's rule
	 * ({@link PlainNumbers}): {@code "rtt": 1e-3} is refused as {@code ?rtt=1e-3} is, not
	 * read as 0.001.
	 */
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
