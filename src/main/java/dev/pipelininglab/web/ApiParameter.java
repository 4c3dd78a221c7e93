package dev.pipelininglab.web;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.pipelininglab.run.Ratio;
import org.jspecify.annotations.Nullable;

/**
 * Every parameter of the API, once, with its bounds and meaning: the checks, the API
 * description, {@code GET /} and the README table are made from it or checked against it.
 * A new one is an entry here, a field of {@link RunParams}, {@link RunJobRequest} and the
 * run's record, and its check in {@link RunRequests}: CatalogueTests and
 * RecordedRequestTests fail until each place has it.
 */
public enum ApiParameter {

	COUNT("count", In.PATH, Type.INTEGER, Endpoints.RUNS, "every run",
			"How many commands: keys to SET or GET, elements to RPOP, RPUSH or LPUSH, PINGs, INCRs, hash fields, set"
					+ " or sorted-set members",
			"1000", (lab) -> Bounds.of(1, lab.limits().maxCount(), null)),

	OP("op", In.PATH, Type.STRING, Endpoints.MULTIPLE, "/compare and /sweep",
			"The command to run: set, get, rpop, ping, incr, hset, sadd, zadd, lpush or mixed (SETs and GETs"
					+ " interleaved as ratio= says)",
			"set", (lab) -> Bounds.pattern("^(" + String.join("|", RunEndpoint.OPERATIONS) + ")$")),

	ID("id", In.PATH, Type.STRING, Endpoints.JOB, "/runs/{id}", "The run's id, from the Location of POST /runs",
			"0b6f4f5e-7d1c-4f43-9a55-2f1d8c3e6a10", (lab) -> Bounds.NONE),

	BATCH_SIZE("batchSize", In.QUERY, Type.INTEGER, Endpoints.RUNS_AND_RECIPES, "every run and /recipes",
			"Commands per pipeline, multi-key command or script call; at most count"
					+ " (default lab.limits.default-batch-size, or count when smaller); in a recipe, the BATCH_SIZE"
					+ " filled in",
			"1000", (lab) -> Bounds.of(1, lab.limits().maxBatchSize(), lab.limits().defaultBatchSize())),

	VARIANT("variant", In.PATH, Type.STRING, List.of(Endpoints.RECIPE), "/recipes/{variant}",
			"A variant as written in variants= (loop, pipelined-buffered-500, multi-key, jedis-pipelined, ...): the"
					+ " recipe for it, with its flush policy filled in",
			"pipelined-buffered-500", (lab) -> Bounds.NONE),

	SAMPLE("sample", In.QUERY, Type.INTEGER, Endpoints.RUNS, "every run", "How many values to echo back", "3",
			(lab) -> Bounds.of(0, lab.limits().maxSample(), lab.limits().defaultSample())),

	TTL("ttl", In.QUERY, Type.INTEGER, Endpoints.SETS, "SET",
			"SET only: seconds until the keys expire (at most a week)", "300",
			(lab) -> Bounds.of(1, FixedBounds.MAX_TTL_SECONDS, null)),

	FLUSH_POLICY("flushPolicy", In.QUERY, Type.STRING, Endpoints.PIPELINED, "pipelined runs, /compare and /sweep",
			"When Lettuce writes pipelined commands to the socket: flush-each-command, flush-on-close or"
					+ " buffered-<n> with n from 1 to 1000000 (default lab.pipeline.flush-policy)",
			"buffered-1000",
			(lab) -> new Bounds(null, null, lab.pipeline().flushPolicy().toString(),
					"^(flush-each-command|flush-on-close|buffered-[1-9][0-9]*)$")),

	RTT("rtt", In.QUERY, Type.NUMBER, Endpoints.RUNS, "every run, every topology",
			"Milliseconds of round-trip time to add through the lab's latency relay, to see pipelining on a slow"
					+ " network; at least 0.001 (one microsecond), the finest delay the relay is meant to hold",
			null, (lab) -> Bounds.of(FixedBounds.MIN_RTT_MILLIS, FixedBounds.MAX_RTT_MILLIS, null)),

	REPEAT("repeat", In.QUERY, Type.INTEGER, Endpoints.MULTIPLE, "/compare and /sweep",
			"Timed passes per variant or batch size; the median is reported", "3",
			(lab) -> Bounds.of(1, lab.limits().maxRepeat(), 1)),

	VARIANTS("variants", In.QUERY, Type.LIST, List.of(Endpoints.COMPARE), "/compare",
			"Comma-separated variants, in order: loop, pipelined (the app's default flush policy,"
					+ " lab.pipeline.flush-policy, here " + FixedBounds.APP_POLICY
					+ "; Spring Data Redis' own default is" + " flush-each-command), pipelined-<flush policy>"
					+ " (e.g. pipelined-buffered-1000), pipelined-by-node (cluster: one pipeline per master),"
					+ " multi-key, multi-key-hashtag, script, async, transaction, pipelined-transaction,"
					+ " transaction-hashtag (cluster), reactive (Lettuce; the last four only when named); a"
					+ " pipelined or async variant may end in -per-flush or -per-command (how batches reach Netty,"
					+ " e.g. pipelined-buffered-500-per-flush); jedis-<mode> (jedis-loop, jedis-pipelined,"
					+ " jedis-multi-key, jedis-multi-key-hashtag, jedis-script) for Spring Data Redis's Jedis"
					+ " connector. Default: loop, each flush policy, the default one with the other way of"
					+ " writing, pipelined-by-node, multi-key, multi-key-hashtag, script and async",
			"loop,pipelined,multi-key", (lab) -> Bounds.NONE),

	BATCH_SIZES("batchSizes", In.QUERY, Type.LIST, List.of(Endpoints.SWEEP), "/sweep",
			"Comma-separated batch sizes, at most " + FixedBounds.MAX_SWEEP_POINTS
					+ ", each a valid batchSize. Default 1,10,100,1000,10000 up to count",
			"1,10,100,1000", (lab) -> Bounds.NONE),

	VALUE_SIZE("valueSize", In.QUERY, Type.INTEGER, Endpoints.VALUES, "operations that carry values (not INCR, PING)",
			"Bytes per value: value-<i>- followed by characters derived from i, so every variant writes the same"
					+ " bytes and the read-back compares each value in full. Batches whose values would exceed"
					+ " lab.limits.max-batch-bytes are shrunk, and the answer says so (default: the plain value-<i>)",
			null, (lab) -> Bounds.of(1, lab.limits().maxValueSize(), null)),

	REQUESTS("requests", In.QUERY, Type.INTEGER, Endpoints.RUNS, "every run",
			"Fan-out: send the whole run of count items this many times, one request after the other, as an API"
					+ " handler does per incoming request; latency percentiles are then per request. count x requests"
					+ " is at most lab.limits.max-count",
			null, (lab) -> Bounds.of(1, lab.limits().maxRequests(), 1)),

	RATE("rate", In.QUERY, Type.INTEGER, Endpoints.RUNS, "every run",
			"Offered load in commands per second, over all clients: the loop sends a command every 1/rate s, a"
					+ " pipeline a batch every batchSize/rate s. Latency percentiles are then taken from each round"
					+ " trip's intended send time, so a stall shows in p99 instead of hiding (coordinated omission),"
					+ " and the answer says whether the rate was held (default: as fast as it goes)",
			null, (lab) -> Bounds.of(1, FixedBounds.MAX_RATE, null)),

	DURATION("duration", In.QUERY, Type.INTEGER, Endpoints.RUNS, "every run",
			"Seconds each timed pass may send for: it ends then or after its count commands, whichever comes"
					+ " first (count=10000000&duration=10 is a run of ten seconds); every variant of a comparison"
					+ " gets the same time, and the answer's timeLimit says how many commands ran and whether the"
					+ " limit ended the run (at most lab.limits.max-duration; default: no limit)",
			null, (lab) -> Bounds.of(1, lab.limits().maxDuration().toSeconds(), null)),
	RATIO("ratio", In.QUERY, Type.STRING, Endpoints.MIXED, "op=mixed",
			"SETs to GETs as W:R, each side 1 to " + Ratio.MAX_SIDE
					+ ": every cycle of W+R items sends W SETs, each to its own key, then R GETs of those keys,"
					+ " in the same order in every variant (default 1:10, memtier's)",
			"1:10", (lab) -> new Bounds(null, null, Ratio.DEFAULT.label(), "^[0-9]{1,4}:[0-9]{1,4}$")),

	KEYS("keys", In.QUERY, Type.INTEGER, Endpoints.KEYED, "SET and GET",
			"The key space: how many distinct keys the run's items walk, key indexes 0 to keys - 1 (default:"
					+ " count, item i on key i). With fewer keys than items, keys are written more than once and the"
					+ " read-back expects the last write; with more, a GET misses the keys never written and the"
					+ " answer gives the hit rate. At most lab.limits.max-count",
			"1000", (lab) -> Bounds.of(1, lab.limits().maxCount(), null)),

	PATTERN("pattern", In.QUERY, Type.STRING, Endpoints.KEYED, "SET and GET",
			"How the items walk the key space, as memtier's --key-pattern: sequential (item i on key i mod keys),"
					+ " uniform (random) or gaussian (hot keys in the middle: mean keys/2, deviation keys/6). Seeded,"
					+ " so every variant, client and repeat sends the same key sequence",
			"gaussian", (lab) -> new Bounds(null, null, "sequential", "^(sequential|uniform|gaussian)$")),

	SEED("seed", In.QUERY, Type.INTEGER, Endpoints.KEYED, "SET and GET",
			"What the uniform and gaussian patterns draw from: the key of item i is a function of seed and i"
					+ " alone, so the same seed replays the same keys (default " + FixedBounds.DEFAULT_SEED
					+ ", reported with the key space)",
			"7", (lab) -> Bounds.of(0, Long.MAX_VALUE, FixedBounds.DEFAULT_SEED)),

	CLIENTS("clients", In.QUERY, Type.INTEGER, Endpoints.RUNS, "every run",
			"Threads that split count into disjoint key ranges and start together; the answer gives the aggregate"
					+ " rate, each client's, and round-trip percentiles over all (at most count)",
			null, (lab) -> Bounds.of(1, lab.limits().maxClients(), 1)),

	CONNECTOR("connector", In.QUERY, Type.STRING, Endpoints.CONNECTOR,
			"single runs and /sweep (in /compare, name Jedis variants jedis-<mode>)",
			"Spring Data Redis's connector: lettuce (Spring Boot's default) or jedis (built on first use, with its"
					+ " own pool; no flush policy, no async, no pipelines on a cluster). /compare names Jedis"
					+ " variants jedis-<mode> instead",
			null, (lab) -> new Bounds(null, null, "lettuce", "^(lettuce|jedis)$")),

	CONNECTION("connection", In.QUERY, Type.STRING, Endpoints.CONNECTION,
			"loop runs and /compare (a pipeline always takes a dedicated pooled connection)",
			"Loop, multi-key and script calls: shared (Lettuce's default, one native connection for every thread)"
					+ " or pooled (each call borrows a connection; the only way for Jedis). Pipelines always take"
					+ " a dedicated pooled connection",
			"pooled", (lab) -> new Bounds(null, null, null, "^(shared|pooled)$")),

	INSTANCES("instances", In.BODY, Type.INTEGER, List.of(Endpoints.JOBS), "POST /runs: single SET and GET runs",
			"A fleet run: how many app instances run it together, this one included, each started with"
					+ " lab.fleet.join=true on the same Redis and key prefix; each sends its share of the items and the"
					+ " record merges them (at most lab.fleet.max-instances; not with rate, duration, keys or requests)",
			"3", (lab) -> Bounds.of(1, lab.fleet().maxInstances(), 1)),

	LIMIT("limit", In.QUERY, Type.INTEGER, List.of(Endpoints.JOBS), "GET /runs", "How many runs to list, newest first",
			"20",
			(lab) -> Bounds.of(1, lab.jobs().history(),
					Math.min(FixedBounds.DEFAULT_LIST_LIMIT, lab.jobs().history()))),

	A("a", In.QUERY, Type.STRING, List.of(Endpoints.PAIR), "GET /runs/compare",
			"The run compared against (before): its id", "0b6f4f5e-7d1c-4f43-9a55-2f1d8c3e6a10", (lab) -> Bounds.NONE),

	B("b", In.QUERY, Type.STRING, List.of(Endpoints.PAIR), "GET /runs/compare",
			"The run compared (after): its id; each ratio is b's figure over a's",
			"5e2c1d55-3a4b-4c6d-8e9f-0a1b2c3d4e5f", (lab) -> Bounds.NONE),

	COLUMNS("columns", In.QUERY, Type.LIST, Endpoints.TABLES, "every run's text, CSV and Markdown answer, reports",
			"The table's columns, comma-separated, in order: all, or any of " + String.join(", ", FixedBounds.COLUMNS)
					+ ". Default: for Accept: text/plain"
					+ " variant,ops/s,ops/s-min-max,speedup,speedup-min-max,p50/p99-ms,limited,checked"
					+ " (the min-max columns only where passes were repeated; a sweep adds batch; limited is left out where longer cells would pass the width, and"
					+ " said under the table anyway), which fits 100 columns; every figure for CSV, Markdown and"
					+ " /runs/{id}/report.{format}",
			"variant,batch,ops/s,p99-ms", (lab) -> Bounds.NONE),

	FORMAT("format", In.PATH, Type.STRING, List.of(Endpoints.REPORT), "GET /runs/{id}/report.{format}",
			"json, csv, md (a Markdown table) or txt", "csv", (lab) -> Bounds.pattern("^(json|csv|md|txt)$"));

	private final String parameterName;

	private final In in;

	private final Type type;

	private final List<String> endpoints;

	private final String appliesTo;

	private final String description;

	/**
	 * What Swagger UI's "Try it out" fills in: null where a value would clash with
	 * another's example (jedis with a flush policy, requests with count, clients with a
	 * key pattern) or stretch a trial run (an added RTT, a rate, a duration, large
	 * values).
	 */
	private final @Nullable String example;

	private final Function<LabSettings, Bounds> bounds;

	ApiParameter(String name, In in, Type type, List<String> endpoints, String appliesTo, String description,
			@Nullable String example, Function<LabSettings, Bounds> bounds) {
		this.parameterName = name;
		this.in = in;
		this.type = type;
		this.endpoints = endpoints;
		this.appliesTo = appliesTo;
		this.description = description;
		this.example = example;
		this.bounds = bounds;
	}

	public String parameterName() {
		return this.parameterName;
	}

	In in() {
		return this.in;
	}

	public Type type() {
		return this.type;
	}

	List<String> endpoints() {
		return this.endpoints;
	}

	String appliesTo() {
		return this.appliesTo;
	}

	/** With what this app is configured to do filled in. */
	String description(LabSettings lab) {
		return this.description.replace(FixedBounds.APP_POLICY, lab.pipeline().flushPolicy().toString());
	}

	@Nullable String example() {
		return this.example;
	}

	public Bounds bounds(LabSettings lab) {
		return this.bounds.apply(lab);
	}

	/**
	 * The value, or the default when it is left out.
	 * @throws InvalidParameterException naming it when it is out of bounds, or left out
	 * without a default
	 */
	public long check(LabSettings lab, @Nullable Number value) {
		Bounds bounds = bounds(lab);
		Number given = (value != null) ? value : (Number) bounds.defaultValue();
		if (given == null) {
			throw new InvalidParameterException(this.parameterName, "must be given");
		}
		String unit = switch (this) {
			case TTL -> " seconds";
			case VALUE_SIZE -> " bytes";
			case RTT -> " milliseconds";
			default -> "";
		};
		return bounds.check(this.parameterName, given, unit).longValue();
	}

	/**
	 * Checks {@code columns=} before anything runs: {@code all}, or column keys separated
	 * by commas.
	 */
	public static void checkColumns(String asked) {
		for (String key : asked.split(",", -1)) {
			if (!asked.equals("all") && !FixedBounds.COLUMNS.contains(key)) {
				throw new InvalidParameterException(COLUMNS.parameterName, "must be all or column names separated by"
						+ " commas, got '" + key + "' (known: " + String.join(",", FixedBounds.COLUMNS) + ")");
			}
		}
	}

	public static Optional<ApiParameter> named(@Nullable String name) {
		return Stream.of(values()).filter((parameter) -> parameter.parameterName.equals(name)).findFirst();
	}

	static List<ApiParameter> query(String pattern) {
		return Stream.of(values())
			.filter((parameter) -> parameter.in == In.QUERY && parameter.endpoints.contains(pattern))
			.toList();
	}

	static boolean describes(String pattern) {
		return Stream.of(values()).anyMatch((parameter) -> parameter.endpoints.contains(pattern));
	}

	enum In {

		PATH, QUERY, BODY

	}

	/** A list is comma-separated in a URL, an array in JSON. */
	public enum Type {

		INTEGER, NUMBER, STRING, LIST

	}

	/** Inclusive bounds, a pattern, the default (null: none when left out). */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Bounds(@Nullable Number minimum, @Nullable Number maximum,
			@JsonProperty("default") @Nullable Object defaultValue, @Nullable String pattern) {

		static final Bounds NONE = new Bounds(null, null, null, null);

		static Bounds of(Number minimum, Number maximum, @Nullable Object defaultValue) {
			return new Bounds(minimum, maximum, defaultValue, null);
		}

		static Bounds pattern(String pattern) {
			return new Bounds(null, null, null, pattern);
		}

		/** Compared as doubles, so NaN is out of every bound. */
		Number check(String name, Number value, String unit) {
			double given = value.doubleValue();
			if ((this.minimum != null && !(given >= this.minimum.doubleValue()))
					|| (this.maximum != null && !(given <= this.maximum.doubleValue()))) {
				throw new InvalidParameterException(name,
						"must be between " + this.minimum + " and " + this.maximum + unit + ", got " + value);
			}
			return value;
		}

	}

}
