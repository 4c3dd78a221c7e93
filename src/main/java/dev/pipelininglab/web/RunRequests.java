package dev.pipelininglab.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.pipelininglab.LabProperties;
import dev.pipelininglab.job.RunKind;
import dev.pipelininglab.job.RunPlan;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Variant;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * Turns request parameters into run specifications, checking every bound before anything
 * touches Redis.
 */
@Component
class RunRequests {

	/**
	 * A week: long enough for any demo, short enough that a typo does not leave keys for
	 * years.
	 */
	static final long MAX_TTL_SECONDS = 7 * 24 * 3600;

	static final double MAX_RTT_MILLIS = 1000;

	static final int MAX_SWEEP_POINTS = 20;

	static final List<Integer> DEFAULT_SWEEP = List.of(1, 10, 100, 1000, 10000);

	static final int DEFAULT_LIST_LIMIT = 20;

	private final LabProperties.Limits limits;

	private final FlushPolicy defaultPolicy;

	RunRequests(LabProperties properties) {
		this.limits = properties.limits();
		this.defaultPolicy = properties.pipeline().flushPolicy();
	}

	/**
	 * One run of one mode, as the {@code /pipe*}, {@code /loop*} and {@code /listinput}
	 * endpoints do.
	 */
	RunSpec single(Operation operation, Mode mode, long count, RunParams params) {
		onlyFor("repeat", params.repeat(), "/compare and /sweep");
		onlyFor("variants", params.variants(), "/compare");
		onlyFor("batchSizes", params.batchSizes(), "/sweep");
		if (mode != Mode.PIPELINED) {
			onlyFor("flushPolicy", params.flushPolicy(), "pipelined runs, /compare and /sweep");
		}
		return spec(operation, mode, count, params, 1);
	}

	/**
	 * The shared part of a comparison or sweep; each variant or batch size is applied to
	 * it.
	 */
	RunSpec multiple(Operation operation, long count, RunParams params) {
		int repeat = (params.repeat() != null) ? params.repeat() : 1;
		if (repeat < 1 || repeat > this.limits.maxRepeat()) {
			throw new InvalidParameterException("repeat",
					"must be between 1 and " + this.limits.maxRepeat() + ", got " + repeat);
		}
		return spec(operation, Mode.LOOP, count, params, repeat);
	}

	List<Variant> variants(RunParams params) {
		if (params.variants() == null) {
			FlushPolicy buffered = (this.defaultPolicy.kind() == FlushPolicy.Kind.BUFFERED) ? this.defaultPolicy
					: FlushPolicy.buffered(1000);
			return List.of(Variant.of(Mode.LOOP), new Variant(Mode.PIPELINED, FlushPolicy.FLUSH_EACH_COMMAND),
					new Variant(Mode.PIPELINED, FlushPolicy.FLUSH_ON_CLOSE), new Variant(Mode.PIPELINED, buffered),
					Variant.of(Mode.MULTI_KEY), Variant.of(Mode.MULTI_KEY_HASHTAG), Variant.of(Mode.SCRIPT),
					Variant.of(Mode.ASYNC));
		}
		List<Variant> variants = new ArrayList<>();
		for (String label : split("variants", params.variants())) {
			try {
				Variant variant = Variant.valueOf(label);
				if (!variants.contains(variant)) {
					variants.add(variant);
				}
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidParameterException("variants", "must name known variants: " + ex.getMessage());
			}
		}
		return variants;
	}

	List<Integer> batchSizes(long count, RunParams params) {
		if (params.batchSizes() == null) {
			return DEFAULT_SWEEP.stream().filter((size) -> size <= count).toList();
		}
		List<String> texts = split("batchSizes", params.batchSizes());
		if (texts.size() > MAX_SWEEP_POINTS) {
			throw new InvalidParameterException("batchSizes", "must list at most " + MAX_SWEEP_POINTS + " sizes");
		}
		List<Integer> sizes = new ArrayList<>();
		for (String text : texts) {
			int size;
			try {
				size = Integer.parseInt(text);
			}
			catch (NumberFormatException ex) {
				throw new InvalidParameterException("batchSizes", "must be whole numbers, got '" + text + "'");
			}
			checkBatchSize("batchSizes", size, count);
			sizes.add(size);
		}
		return sizes;
	}

	static Operation operation(String label) {
		return operation("op", label, false);
	}

	/**
	 * The body of {@code POST /runs}, checked exactly like the GET endpoint it mirrors; a
	 * field that endpoint would not take is rejected the same way as the query parameter
	 * would be.
	 */
	RunPlan plan(RunJobRequest body) {
		RunKind kind = kind(body);
		String operation = required("operation", body.operation());
		long count = required("count", body.count());
		RunParams params = body.params();
		return switch (kind) {
			case SINGLE -> RunPlan
				.single(single(bodyOperation(operation, true), mode(required("mode", body.mode())), count, params));
			case COMPARE -> {
				onlyFor("mode", body.mode(), "single runs");
				onlyFor("batchSizes", params.batchSizes(), "sweeps");
				yield RunPlan.compare(multiple(bodyOperation(operation, false), count, params), variants(params));
			}
			case SWEEP -> {
				onlyFor("mode", body.mode(), "single runs");
				onlyFor("variants", params.variants(), "comparisons");
				yield RunPlan.sweep(multiple(bodyOperation(operation, false), count, params),
						batchSizes(count, params));
			}
		};
	}

	/** How many runs {@code GET /runs} lists. */
	int listLimit(@Nullable Integer limit, int history) {
		if (limit == null) {
			return Math.min(DEFAULT_LIST_LIMIT, history);
		}
		if (limit < 1 || limit > history) {
			throw new InvalidParameterException("limit", "must be between 1 and " + history + ", got " + limit);
		}
		return limit;
	}

	private static RunKind kind(RunJobRequest body) {
		if (body.kind() == null) {
			return (body.variants() != null) ? RunKind.COMPARE
					: (body.batchSizes() != null) ? RunKind.SWEEP : RunKind.SINGLE;
		}
		return RunKind.fromLabel(body.kind())
			.orElseThrow(() -> new InvalidParameterException("kind",
					"must be one of single, compare, sweep, got '" + body.kind() + "'"));
	}

	static Mode mode(String label) {
		return Mode.fromLabel(label)
			.orElseThrow(() -> new InvalidParameterException("mode",
					"must be one of "
							+ String.join(", ", java.util.Arrays.stream(Mode.values()).map(Mode::label).toList())
							+ ", got '" + label + "'"));
	}

	/**
	 * Like {@link #operation(String)}, named as the body names it; single runs may also
	 * RPUSH, as /listinput does.
	 */
	private static Operation bodyOperation(String label, boolean single) {
		return operation("operation", label, single);
	}

	private static Operation operation(String parameter, String label, boolean rpush) {
		return Operation.fromLabel(label)
			.filter((operation) -> rpush || operation != Operation.RPUSH)
			.orElseThrow(() -> new InvalidParameterException(parameter,
					"must be one of set, get, rpop, ping" + (rpush ? ", rpush" : "") + ", got '" + label + "'"));
	}

	private static <T> T required(String name, @Nullable T value) {
		if (value == null) {
			throw new InvalidParameterException(name, "must be given");
		}
		return value;
	}

	private RunSpec spec(Operation operation, Mode mode, long count, RunParams params, int repeat) {
		if (count < 1 || count > this.limits.maxCount()) {
			throw new InvalidParameterException("count",
					"must be between 1 and " + this.limits.maxCount() + ", got " + count);
		}
		int batch = (params.batchSize() != null) ? params.batchSize()
				: (int) Math.min(this.limits.defaultBatchSize(), count);
		checkBatchSize("batchSize", batch, count);
		int sample = (params.sample() != null) ? params.sample() : this.limits.defaultSample();
		if (sample < 0 || sample > this.limits.maxSample()) {
			throw new InvalidParameterException("sample",
					"must be between 0 and " + this.limits.maxSample() + ", got " + sample);
		}
		return new RunSpec(operation, mode, flushPolicy(params.flushPolicy()), count, batch, sample,
				ttl(operation, params.ttl()), rtt(params.rtt()), repeat);
	}

	private void checkBatchSize(String name, int size, long count) {
		if (size < 1 || size > this.limits.maxBatchSize()) {
			throw new InvalidParameterException(name,
					"must be between 1 and " + this.limits.maxBatchSize() + ", got " + size);
		}
		if (size > count) {
			throw new InvalidParameterException(name, "must not be larger than count (" + count + "), got " + size);
		}
	}

	private FlushPolicy flushPolicy(@Nullable String text) {
		if (text == null) {
			return this.defaultPolicy;
		}
		try {
			return FlushPolicy.valueOf(text);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidParameterException("flushPolicy", "must be a known policy: " + ex.getMessage());
		}
	}

	private static @Nullable Duration ttl(Operation operation, @Nullable Long ttl) {
		if (ttl == null) {
			return null;
		}
		if (operation != Operation.SET) {
			throw new InvalidParameterException("ttl", "must be left out: it applies to SET only");
		}
		if (ttl < 1 || ttl > MAX_TTL_SECONDS) {
			throw new InvalidParameterException("ttl",
					"must be between 1 and " + MAX_TTL_SECONDS + " seconds, got " + ttl);
		}
		return Duration.ofSeconds(ttl);
	}

	private static @Nullable Duration rtt(@Nullable Double millis) {
		if (millis == null) {
			return null;
		}
		if (!(millis > 0 && millis <= MAX_RTT_MILLIS)) {
			throw new InvalidParameterException("rtt",
					"must be more than 0 and at most " + MAX_RTT_MILLIS + " milliseconds, got " + millis);
		}
		return Duration.ofNanos(Math.round(millis * 1_000_000));
	}

	private static void onlyFor(String name, @Nullable Object value, String where) {
		if (value != null) {
			throw new InvalidParameterException(name, "must be left out: it applies to " + where + " only");
		}
	}

	private static List<String> split(String name, String list) {
		List<String> items = java.util.Arrays.stream(list.split(","))
			.map(String::trim)
			.filter((s) -> !s.isEmpty())
			.toList();
		if (items.isEmpty()) {
			throw new InvalidParameterException(name, "must list at least one value");
		}
		return items;
	}

}
