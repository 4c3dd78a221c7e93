package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

/**
 * The answer to one run, in parts unwrapped into one flat JSON object: field names are a
 * contract with clients and scripts, and each field is described once, in docs/api.md
 * ("The answer"). Fields that do not apply are left out.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(value = "projection", allowGetters = true)
public record RunResult(@JsonUnwrapped Ran ran, @JsonUnwrapped Timing timing, @JsonUnwrapped Counts counts,
		@JsonUnwrapped ClusterUse cluster, @JsonUnwrapped Notes notes, @Nullable Double speedup,
		@Nullable Double speedupMin, @Nullable Double speedupMax, @JsonUnwrapped Load load,
		@JsonUnwrapped Connection connection, @JsonUnwrapped ServerSide serverSide, @Nullable Bottleneck limitedBy,
		@Nullable Map<String, String> settings) {

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Ran(Operation operation, Mode mode, String variant, @Nullable String flushPolicy,
			@Nullable String writes, long count, int batchSize, long batches, String topology) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Timing(double elapsedMillis, double opsPerSecond, @Nullable Double opsPerSecondMin,
			@Nullable Double opsPerSecondMax, int repeat, @Nullable List<Double> repeatMillis,
			@Nullable Double addedRttMillis, double measuredRttMillis,
			@Nullable Map<String, Double> measuredRttMillisByNode) {

		/** The slowest pass's, or the figure itself when one pass ran. */
		@JsonIgnore
		public double slowest() {
			return (this.opsPerSecondMin != null) ? this.opsPerSecondMin : this.opsPerSecond;
		}

		/** The fastest pass's, or the figure itself when one pass ran. */
		@JsonIgnore
		public double fastest() {
			return (this.opsPerSecondMax != null) ? this.opsPerSecondMax : this.opsPerSecond;
		}

	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Counts(@Nullable Long written, @Nullable Long verified, @Nullable Long hits, @Nullable Long misses,
			@Nullable Long popped, @Nullable Long empty, @Nullable Long pongs, @Nullable Mix mix) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Mix(String ratio, long sets, long gets, long hits, long misses, double setsPerSecond,
			double getsPerSecond, @Nullable Map<String, Latency> latencyByCommand, @Nullable String latencyNote) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record ClusterUse(@Nullable Map<String, Long> keysPerNode, @Nullable Integer slotsTouched,
			@Nullable Long commands, @Nullable Long redirects) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Notes(@Nullable String note, List<String> sample) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Load(Latency latency, @Nullable Payload payload, @Nullable FanOut fanOut,
			@Nullable OfferedRate offeredRate, @Nullable TimeLimit timeLimit, @Nullable KeySpaceUse keySpace) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record KeySpaceUse(long keys, String pattern, long seed, long distinctKeys, @Nullable Double hitRate) {

		static @Nullable KeySpaceUse of(Workload workload, List<ClientThreads.Reach> ran, @Nullable Long hits,
				@Nullable Long misses) {
			KeyWalk walk = workload.keyWalk();
			if (walk == null) {
				return null;
			}
			long reads = ((hits != null) ? hits : 0) + ((misses != null) ? misses : 0);
			Double hitRate = (hits != null && reads > 0) ? Math.round(hits * 10_000.0 / reads) / 10_000.0 : null;
			return new KeySpaceUse(walk.size(), walk.pattern().label(), walk.seed(), walk.distinct(ran), hitRate);
		}

	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Connection(ConnectorUse connector, @Nullable ConnectionsUsed connections,
			@Nullable ClientsReport clients, @Nullable String master) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record ServerSide(@Nullable ServerStats server, @Nullable Long foreignCommands) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Payload(int valueSize, double bytesPerSecond, @Nullable Integer batchSizeAsked,
			@Nullable Long maxBatchBytes) {
	}

	public record FanOut(int requests, double requestsPerSecond) {
	}

	public record OfferedRate(int asked, double achieved, boolean held, String latencyFrom) {

		static @Nullable OfferedRate of(Workload workload, double achieved) {
			if (workload.rate() == 0) {
				return null;
			}
			return new OfferedRate(workload.rate(), achieved, achieved >= 0.95 * workload.rate(), "intended send time");
		}

	}

	/** What a pass sent, which a time limit may cut short: never the count asked for. */
	public long commandsRan() {
		TimeLimit limit = this.load.timeLimit();
		return (limit != null) ? limit.commandsRan() : this.ran.count();
	}

	/** Derived, never stored, so it cannot disagree with the figures. */
	@JsonProperty("projection")
	public @Nullable Projection projection() {
		return Projection.of(this);
	}

	/**
	 * At the answer's round trip: its figure, and what held the pass back judged with it.
	 */
	RunResult withRoundTrip(LoopCeiling.RoundTrip rtt) {
		Timing at = new Timing(this.timing.elapsedMillis, this.timing.opsPerSecond, this.timing.opsPerSecondMin,
				this.timing.opsPerSecondMax, this.timing.repeat, this.timing.repeatMillis, this.timing.addedRttMillis,
				rtt.millis(), this.timing.measuredRttMillisByNode);
		return new RunResult(this.ran, at, this.counts, this.cluster, this.notes, this.speedup, this.speedupMin,
				this.speedupMax, this.load, this.connection, this.serverSide,
				(this.limitedBy != null) ? this.limitedBy.at(rtt) : null, this.settings);
	}

	/** Without the settings, which a comparison or sweep carries once. */
	RunResult partOfMany(@Nullable Double value) {
		return partOfMany(value, null, null);
	}

	/** {@code min}, {@code max}: the speedup's spread over the passes, when repeated. */
	RunResult partOfMany(@Nullable Double value, @Nullable Double min, @Nullable Double max) {
		return new RunResult(this.ran, this.timing, this.counts, this.cluster, this.notes, value, min, max, this.load,
				this.connection, this.serverSide, this.limitedBy, null);
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record ConnectorUse(String name, String connection, @Nullable String pipelineWrites) {
	}

	public record ConnectionsUsed(int used, long opened, String countedBy) {
	}

	public record ClientsReport(int count, Spread opsPerSecond, List<PerClient> perClient) {
	}

	public record Spread(double min, double median, double max) {
	}

	public record PerClient(int client, long first, long last, long items, double elapsedMillis, double opsPerSecond) {
	}

}
