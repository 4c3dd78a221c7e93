package dev.pipelininglab.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.PlainNumbers;
import dev.pipelininglab.job.RunKind;
import dev.pipelininglab.job.RunPlan;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.Writes;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Variant;
import dev.pipelininglab.run.Workload;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * Turns request parameters into run specifications, checking every bound before anything
 * touches Redis.
 */
@Component
public class RunRequests {

	static final List<Integer> DEFAULT_SWEEP = List.of(1, 10, 100, 1000, 10000);

	private final LabSettings properties;

	private final LimitProperties limits;

	private final FlushPolicy defaultPolicy;

	RunRequests(LabSettings properties) {
		this.properties = properties;
		this.limits = properties.limits();
		this.defaultPolicy = properties.pipeline().flushPolicy();
	}

	RunSpec single(Operation operation, Mode mode, long count, RunParams params) {
		onlyFor(ApiParameter.REPEAT, params.repeat());
		onlyFor(ApiParameter.VARIANTS, params.variants());
		onlyFor(ApiParameter.BATCH_SIZES, params.batchSizes());
		if (mode != Mode.PIPELINED) {
			onlyFor(ApiParameter.FLUSH_POLICY, params.flushPolicy());
		}
		RunSpec spec = spec(operation, mode, count, params, 1);
		withinRunBytes(spec, List.of(spec));
		return spec;
	}

	RunPlan compare(Operation operation, long count, RunParams params) {
		RunSpec base = multiple(operation, count, params);
		// Asked for neither: the lab picks passes that make a steady answer.
		boolean steady = params.repeat() == null && params.duration() == null;
		return RunPlan.compare(base, withinRunBytes(base, variants(params)), steady);
	}

	RunPlan sweep(Operation operation, long count, RunParams params) {
		RunSpec base = multiple(operation, count, params);
		return RunPlan.sweep(base, withinRunBytes(base, batchSizes(count, params)));
	}

	private RunSpec multiple(Operation operation, long count, RunParams params) {
		int repeat = (int) ApiParameter.REPEAT.check(this.properties, params.repeat());
		return spec(operation, Mode.LOOP, count, params, repeat);
	}

	/**
	 * Room for every mode, connector and way of writing with a few flush policies each: a
	 * longer comparison is a mistake, not a measurement.
	 */
	private static final int MAX_VARIANTS = 32;

	private List<Variant> variants(RunParams params) {
		if (params.connector() != null) {
			throw new InvalidParameterException("connector", "must be left out: a comparison names Jedis variants"
					+ " jedis-<mode> instead, e.g. variants=loop,jedis-loop,jedis-pipelined");
		}
		if (params.variants() == null) {
			FlushPolicy buffered = (this.defaultPolicy.kind() == FlushPolicy.Kind.BUFFERED) ? this.defaultPolicy
					: FlushPolicy.buffered(1000);
			// The other way of handing pipelines to Netty, beside the configured one.
			Writes other = (this.properties.pipeline().writes() == Writes.PER_COMMAND) ? Writes.PER_FLUSH
					: Writes.PER_COMMAND;
			return List.of(Variant.of(Mode.LOOP), new Variant(Mode.PIPELINED, FlushPolicy.FLUSH_EACH_COMMAND),
					new Variant(Mode.PIPELINED, FlushPolicy.FLUSH_ON_CLOSE), new Variant(Mode.PIPELINED, buffered),
					new Variant(Mode.PIPELINED, buffered, other), Variant.of(Mode.PIPELINED_BY_NODE),
					Variant.of(Mode.MULTI_KEY), Variant.of(Mode.MULTI_KEY_HASHTAG), Variant.of(Mode.SCRIPT),
					Variant.of(Mode.ASYNC));
		}
		List<String> labels = split("variants", params.variants());
		if (labels.size() > MAX_VARIANTS) {
			throw new InvalidParameterException("variants",
					"must name at most " + MAX_VARIANTS + " variants, got " + labels.size());
		}
		try {
			// Named twice, run once, where first named.
			return labels.stream().map(Variant::valueOf).distinct().toList();
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidParameterException("variants", "must name known variants: " + ex.getMessage());
		}
	}

	private List<Integer> batchSizes(long count, RunParams params) {
		if (params.batchSizes() == null) {
			return DEFAULT_SWEEP.stream().filter((size) -> size <= count).toList();
		}
		List<String> texts = split("batchSizes", params.batchSizes());
		if (texts.size() > FixedBounds.MAX_SWEEP_POINTS) {
			throw new InvalidParameterException("batchSizes",
					"must list at most " + FixedBounds.MAX_SWEEP_POINTS + " sizes");
		}
		List<Integer> sizes = new ArrayList<>();
		for (String text : texts) {
			try {
				int size = PlainNumbers.parseInt(text);
				checkBatchSize("batchSizes", size, count);
				sizes.add(size);
			}
			catch (NumberFormatException ex) {
				throw new InvalidParameterException("batchSizes", "must be whole numbers, got '" + text + "'");
			}
		}
		return sizes;
	}

	static Operation operation(String label) {
		return operation("op", label, false);
	}

	/** Checked exactly like the GET endpoint it mirrors, with the same messages. */
	public RunPlan plan(RunJobRequest body) {
		RunKind kind = body.runKind();
		String operation = required("operation", body.operation());
		long count = required("count", body.count());
		RunParams params = body.params();
		RunPlan plan = switch (kind) {
			case SINGLE ->
				RunPlan.single(single(operation("operation", operation, true), body.runMode(), count, params));
			case COMPARE -> {
				onlyFor("mode", body.mode(), "single runs");
				onlyFor(ApiParameter.BATCH_SIZES, params.batchSizes());
				yield compare(operation("operation", operation, false), count, params);
			}
			case SWEEP -> {
				onlyFor("mode", body.mode(), "single runs");
				onlyFor(ApiParameter.VARIANTS, params.variants());
				yield sweep(operation("operation", operation, false), count, params);
			}
		};
		return instances(plan, body.instances());
	}

	/** A fleet merges whole shares: single SET or GET runs only. */
	private RunPlan instances(RunPlan plan, @Nullable Integer instances) {
		int number = (int) ApiParameter.INSTANCES.check(this.properties, instances);
		if (number == 1) {
			return plan;
		}
		String name = ApiParameter.INSTANCES.parameterName();
		RunSpec spec = plan.base();
		Workload workload = spec.workload();
		if (plan.kind() != RunKind.SINGLE || !spec.operation().takesKeyWalk() || workload.rate() > 0
				|| workload.duration() != null || workload.keyWalk() != null || workload.requests() > 1) {
			throw new InvalidParameterException(name, "must be 1 or left out but for single runs of set or get"
					+ " without rate, duration, keys or requests: a fleet merges whole shares of the items");
		}
		if (number > spec.count()) {
			throw new InvalidParameterException(name, "must not exceed count (" + spec.count() + ")");
		}
		if (!this.properties.fleet().join()) {
			throw new InvalidParameterException(name, "must be 1 or left out here: this instance was not started with"
					+ " lab.fleet.join=true (LAB_FLEET_JOIN=true); start every instance of the fleet with it");
		}
		return plan.withInstances(number);
	}

	/** Each factor may be in bounds while their product is terabytes. */
	private <T> List<T> withinRunBytes(RunSpec base, List<T> runs) {
		long valueSize = Math.max(PLAIN_VALUE_BYTES, base.workload().valueSize());
		long requests = base.workload().requests();
		double bytes = (double) base.count() * requests * valueSize * runs.size();
		if (bytes > this.limits.maxRunBytes()) {
			String parameter = (base.workload().valueSize() > 0) ? ApiParameter.VALUE_SIZE.parameterName()
					: ApiParameter.COUNT.parameterName();
			throw new InvalidParameterException(parameter,
					"must keep the whole run within lab.limits.max-run-bytes (" + this.limits.maxRunBytes()
							+ " bytes): count x requests x valueSize x runs = " + base.count() + " x " + requests
							+ " x " + valueSize + " x " + runs.size() + " = "
							+ String.format(java.util.Locale.ROOT, "%,.0f", bytes)
							+ " bytes; ask for fewer keys, smaller values or fewer variants");
		}
		return runs;
	}

	/** About what {@code value-<i>} takes. */
	static final int PLAIN_VALUE_BYTES = 16;

	public int listLimit(@Nullable Integer limit) {
		return (int) ApiParameter.LIMIT.check(this.properties, limit);
	}

	private static Operation operation(String parameter, String label, boolean rpush) {
		Predicate<Operation> offered = (operation) -> rpush || operation.comparable();
		return Operation.fromLabel(label)
			.filter(offered)
			.orElseThrow(() -> new InvalidParameterException(parameter,
					"must be one of " + Arrays.stream(Operation.values())
						.filter(offered)
						.map(Operation::label)
						.collect(Collectors.joining(", ")) + ", got '" + label + "'"));
	}

	static <T> T required(String name, @Nullable T value) {
		if (value == null) {
			throw new InvalidParameterException(name, "must be given");
		}
		return value;
	}

	private RunSpec spec(Operation operation, Mode mode, long count, RunParams params, int repeat) {
		ApiParameter.COUNT.check(this.properties, count);
		int batch = (params.batchSize() != null) ? params.batchSize()
				: (int) Math.min(this.limits.defaultBatchSize(), count);
		checkBatchSize("batchSize", batch, count);
		int sample = (int) ApiParameter.SAMPLE.check(this.properties, params.sample());
		Connector connector = LoadParameters.connector(params.connector());
		if (connector == Connector.JEDIS && params.flushPolicy() != null) {
			throw new InvalidParameterException("flushPolicy",
					"must be left out with connector=jedis: Jedis has no flush policy");
		}
		return new RunSpec(
				operation, mode, flushPolicy(params.flushPolicy()), count, batch, sample, ttl(operation, params.ttl()),
				rtt(params.rtt()), repeat, workload(operation, count, params), new RunSpec.Senders(connector,
						LoadParameters.sharing(mode, connector, params.connection()), clients(params.clients(), count)),
				null);
	}

	private Workload workload(Operation operation, long count, RunParams params) {
		int valueSize = 0;
		if (params.valueSize() != null) {
			if (!operation.carriesValues()) {
				throw new InvalidParameterException(ApiParameter.VALUE_SIZE.parameterName(),
						"must be left out: " + operation.label() + " carries no value");
			}
			valueSize = (int) ApiParameter.VALUE_SIZE.check(this.properties, params.valueSize());
		}
		int requests = (int) ApiParameter.REQUESTS.check(this.properties, params.requests());
		if (count * requests > this.limits.maxCount()) {
			throw new InvalidParameterException(ApiParameter.REQUESTS.parameterName(),
					"must be at most " + (this.limits.maxCount() / count) + " for a count of " + count
							+ " (count x requests at most " + this.limits.maxCount() + "), got " + requests
							+ "; fan-out repeats a small run, e.g. count 30");
		}
		int rate = (params.rate() != null) ? (int) ApiParameter.RATE.check(this.properties, params.rate()) : 0;
		Duration duration = (params.duration() != null)
				? Duration.ofSeconds(ApiParameter.DURATION.check(this.properties, params.duration())) : null;
		return new Workload(valueSize, requests, this.limits.maxBatchBytes(), null, rate, duration,
				LoadParameters.ratio(operation, params.ratio()),
				LoadParameters.walk(operation, count, params, this.properties), 0);
	}

	private int clients(@Nullable Integer clients, long count) {
		int value = (int) ApiParameter.CLIENTS.check(this.properties, clients);
		if (value > count) {
			throw new InvalidParameterException("clients",
					"must not be larger than count (" + count + "): each client needs at least one item, got " + value);
		}
		return value;
	}

	private void checkBatchSize(String name, int size, long count) {
		ApiParameter.BATCH_SIZE.bounds(this.properties).check(name, size, "");
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

	private @Nullable Duration ttl(Operation operation, @Nullable Long ttl) {
		if (ttl == null) {
			return null;
		}
		if (!operation.takesTtl()) {
			throw new InvalidParameterException("ttl", "must be left out: it applies to SET only");
		}
		return Duration.ofSeconds(ApiParameter.TTL.check(this.properties, ttl));
	}

	private @Nullable Duration rtt(@Nullable Double millis) {
		if (millis == null) {
			return null;
		}
		ApiParameter.RTT.check(this.properties, millis);
		return Duration.ofNanos(Math.round(millis * 1_000_000));
	}

	private static void onlyFor(ApiParameter parameter, @Nullable Object value) {
		onlyFor(parameter.parameterName(), value, parameter.appliesTo());
	}

	private static void onlyFor(String name, @Nullable Object value, String where) {
		if (value != null) {
			throw new InvalidParameterException(name, "must be left out: it applies to " + where + " only");
		}
	}

	/** An empty entry ({@code 1,,2}) or a padded one is a mistake, not skipped. */
	private static List<String> split(String name, String list) {
		List<String> items = Arrays.stream(list.split(",", -1)).toList();
		if (items.stream().anyMatch(String::isEmpty)) {
			throw new InvalidParameterException(name, items.size() == 1 ? "must list at least one value"
					: "must not have empty entries, got '" + list + "'");
		}
		if (items.stream().anyMatch((item) -> !item.equals(item.strip()))) {
			throw new InvalidParameterException(name, "must not pad its entries with spaces, got '" + list + "'");
		}
		return items;
	}

}
