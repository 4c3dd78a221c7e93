package dev.pipelininglab.run;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.pipelininglab.redis.ServerConnections;
import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

/**
 * The answer to one run, in parts: what ran, its timing, its counts, how it spread over a
 * cluster, its notes, the load and latency, the connections it used and what the servers
 * did. Field names are a contract with clients and scripts: the parts are unwrapped, so
 * the JSON is one flat object as it always was. Fields that do not apply are left out.
 *
 * @param ran what was run
 * @param timing how long it took
 * @param counts what Redis answered, and what read back
 * @param cluster cluster: how the keys and commands spread over the masters
 * @param notes what the numbers alone do not tell, and the first values
 * @param speedup in a comparison: the loop's elapsed time divided by this run's
 * @param load the latency of the timed pass and how the load was shaped
 * @param connection how the run reached Redis
 * @param serverSide what the Redis servers did
 * @param limitedBy what held the timed pass (the median one) back, the figures that tell,
 * and a sentence ({@link Bottleneck})
 * @param settings single runs: the client tunings in effect that differ from Spring
 * Boot's defaults (a comparison or sweep carries them once, beside its results)
 * <p>
 * The answer adds {@code projection}, derived from these figures (see
 * {@link Projection}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(value = "projection", allowGetters = true)
public record RunResult(@JsonUnwrapped Ran ran, @JsonUnwrapped Timing timing, @JsonUnwrapped Counts counts,
		@JsonUnwrapped ClusterUse cluster, @JsonUnwrapped Notes notes, @Nullable Double speedup,
		@JsonUnwrapped Load load, @JsonUnwrapped Connection connection, @JsonUnwrapped ServerSide serverSide,
		@Nullable Bottleneck limitedBy, @Nullable Map<String, String> settings) {

	/**
	 * What was run.
	 *
	 * @param operation the command sent for each item
	 * @param mode how the commands travelled
	 * @param variant the mode, and for pipelines the flush policy, as written in
	 * {@code variants=}
	 * @param flushPolicy pipelined Lettuce runs: the pipelining flush policy of the
	 * connection the run used
	 * @param writes buffered Lettuce pipelines and async runs: how each flush went to
	 * Netty, {@code per-command} (Lettuce's own endpoint) or {@code per-flush} (one
	 * message, the lab's endpoint); absent under flush-each-command, where both are the
	 * same
	 * @param count items processed
	 * @param batchSize commands (or keys) per round trip: 1 for the loop
	 * @param batches round trips the client made per pass: {@code count} for the loop
	 * @param topology standalone, sentinel or cluster
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Ran(Operation operation, Mode mode, String variant, @Nullable String flushPolicy,
			@Nullable String writes, long count, int batchSize, long batches, String topology) {
	}

	/**
	 * How long the run took, and the round trip it ran over.
	 *
	 * @param elapsedMillis wall time of the commands alone (the median pass when
	 * repeated), measured with {@code System.nanoTime}; warm-up, preparation and
	 * verification are not included
	 * @param opsPerSecond {@code count} divided by the elapsed time
	 * @param repeat timed passes
	 * @param repeatMillis each pass's time, when there was more than one
	 * @param addedRttMillis round-trip time the latency relay added, when one was used
	 * @param measuredRttMillis median PING round trip on the run's connection, measured
	 * before the run
	 * @param measuredRttMillisByNode cluster: the same for each node ({@code host:port}
	 * as announced), masters and replicas, on the run's route
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Timing(double elapsedMillis, double opsPerSecond, int repeat, @Nullable List<Double> repeatMillis,
			@Nullable Double addedRttMillis, double measuredRttMillis,
			@Nullable Map<String, Double> measuredRttMillisByNode) {
	}

	/**
	 * What Redis answered, by operation, and what read back; only the operation's own
	 * counts are present.
	 *
	 * @param written SET and RPUSH: commands Redis acknowledged
	 * @param verified SET: keys read back afterwards that hold exactly the value written
	 * @param hits GET: keys that had a value
	 * @param misses GET: keys that did not exist
	 * @param popped RPOP: elements popped
	 * @param empty RPOP: pops that found the list empty
	 * @param pongs PING: PONG replies
	 * @param mix mixed runs: the SETs and GETs apart
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Counts(@Nullable Long written, @Nullable Long verified, @Nullable Long hits, @Nullable Long misses,
			@Nullable Long popped, @Nullable Long empty, @Nullable Long pongs, @Nullable Mix mix) {
	}

	/**
	 * A mixed run's SETs and GETs apart; present only for {@code op=mixed}.
	 *
	 * @param ratio SETs to GETs, as {@code ratio=} asked
	 * @param sets SETs sent per pass
	 * @param gets GETs sent per pass
	 * @param hits GETs that found a value
	 * @param misses GETs that answered nil
	 * @param setsPerSecond SETs over the pass's elapsed time
	 * @param getsPerSecond GETs over the pass's elapsed time
	 * @param latencyByCommand the loop, which times each command alone: latency of the
	 * SETs and of the GETs apart
	 * @param latencyNote where a round trip carries both, why there is no latency per
	 * command
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Mix(String ratio, long sets, long gets, long hits, long misses, double setsPerSecond,
			double getsPerSecond, @Nullable Map<String, Latency> latencyByCommand, @Nullable String latencyNote) {
	}

	/**
	 * How the run spread over a cluster; empty elsewhere.
	 *
	 * @param keysPerNode cluster: for each master ({@code host:port}), how many of the
	 * run's keys hash to its slots (RPOP and RPUSH: the list key's master, with every
	 * command); 0 for masters the run did not touch
	 * @param slotsTouched cluster: distinct hash slots among the run's keys
	 * @param commands cluster, multi-key: Redis commands sent per pass, since Lettuce
	 * splits a multi-key command whose keys span slots into one command per slot
	 * @param redirects cluster, {@code pipelined-by-node}: present only when some were,
	 * the commands a node answered with MOVED or ASK (a slot moved by a resharding or a
	 * failover) that were sent again to the node named; the median pass's count
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record ClusterUse(@Nullable Map<String, Long> keysPerNode, @Nullable Integer slotsTouched,
			@Nullable Long commands, @Nullable Long redirects) {
	}

	/**
	 * What to read beside the figures.
	 *
	 * @param note what the numbers alone do not tell, e.g. how a cluster split a
	 * multi-key command, or that a read found nothing
	 * @param sample the first values written (as read back), read or popped
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Notes(@Nullable String note, List<String> sample) {
	}

	/**
	 * The latency the timed pass met and how its load was shaped.
	 *
	 * @param latency round-trip latency percentiles of the timed pass (the median pass
	 * when repeated)
	 * @param payload runs with a {@code valueSize}: bytes per value and per second, and
	 * how the byte budget shaped the batches
	 * @param fanOut runs with {@code requests}: the run repeated as that many requests
	 * @param offeredRate runs with {@code rate}: the rate asked, the rate reached, and
	 * whether it was held; latency is then timed from each round trip's intended send
	 * time
	 * @param timeLimit runs with {@code duration}: the commands that ran and whether the
	 * limit ended the run; {@code count} stays the one asked
	 * @param keySpace runs with {@code keys}, {@code pattern} or {@code seed}: the key
	 * space the items walked
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Load(Latency latency, @Nullable Payload payload, @Nullable FanOut fanOut,
			@Nullable OfferedRate offeredRate, @Nullable TimeLimit timeLimit, @Nullable KeySpaceUse keySpace) {
	}

	/**
	 * @param keys keys in the key space, indexes 0 to keys - 1
	 * @param pattern {@code sequential}, {@code uniform} or {@code gaussian}
	 * @param seed what the random patterns drew from: the same seed sends the same keys
	 * @param distinctKeys how many different keys the items touched
	 * @param hitRate GET: hits over GETs, the share of the keys read that existed
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record KeySpaceUse(long keys, String pattern, long seed, long distinctKeys, @Nullable Double hitRate) {

		static @Nullable KeySpaceUse of(Workload workload, List<Clients.Reach> ran, @Nullable Long hits,
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

	/**
	 * How the run reached Redis.
	 *
	 * @param connector the client library and how the run's template calls got
	 * connections
	 * @param connections the connections the run used, as the Redis masters counted them
	 * @param clients more than one client: how the items were split and how fast each
	 * went
	 * @param master sentinel: the master ({@code host:port}) the sentinels named when the
	 * run ended, the one its writes went to; changes after a failover
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Connection(ConnectorUse connector, @Nullable ConnectionsUsed connections,
			@Nullable ClientsReport clients, @Nullable String master) {
	}

	/**
	 * What the Redis servers did.
	 *
	 * @param server what the Redis servers did during the timed pass (the median one when
	 * repeated), from their INFO counters: server-wide deltas
	 * @param foreignCommands present only when the servers processed more commands during
	 * a timed pass than the run sent plus the lab's own periodic traffic allows (50 per
	 * node and 100 a second per node): how many more (the most over the passes), summed
	 * over the masters (and the replicas when a read-only run reads from them). Another
	 * client was busy on the same Redis, so the figures measure it too
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record ServerSide(@Nullable ServerStats server, @Nullable Long foreignCommands) {
	}

	/**
	 * @param valueSize bytes of each value written or read
	 * @param bytesPerSecond value bytes moved per second ({@code opsPerSecond} x
	 * {@code valueSize}; keys and protocol not counted)
	 * @param batchSizeAsked the batch size asked for, when
	 * {@code lab.limits.max-batch-bytes} shrank it to {@code batchSize}
	 * @param maxBatchBytes the byte budget of one batch, when it shrank the batches
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Payload(int valueSize, double bytesPerSecond, @Nullable Integer batchSizeAsked,
			@Nullable Long maxBatchBytes) {
	}

	/**
	 * @param requests how many times the run of {@code count} items was sent, one request
	 * after the other; {@code opsPerSecond} counts the items of all of them
	 * @param requestsPerSecond requests done per second
	 */
	public record FanOut(int requests, double requestsPerSecond) {
	}

	/**
	 * @param asked commands per second asked for ({@code rate})
	 * @param achieved commands per second the timed pass reached
	 * @param held whether it reached at least 95% of the rate asked; when not, the client
	 * (or Redis) could not keep up and the latencies include the backlog
	 * @param latencyFrom where each latency sample starts: the round trip's intended send
	 * time
	 */
	public record OfferedRate(int asked, double achieved, boolean held, String latencyFrom) {

		/**
		 * @param achieved the timed pass's {@code opsPerSecond}
		 */
		static @Nullable OfferedRate of(Workload workload, double achieved) {
			if (workload.rate() == 0) {
				return null;
			}
			return new OfferedRate(workload.rate(), achieved, achieved >= 0.95 * workload.rate(), "intended send time");
		}

	}

	/**
	 * The commands a timed pass sent: all {@code count} of them, or what a time limit let
	 * run. What every sentence about the run counts, never the count asked for.
	 */
	public long commandsRan() {
		TimeLimit limit = this.load.timeLimit();
		return (limit != null) ? limit.commandsRan() : this.ran.count();
	}

	/**
	 * What this run's throughput becomes at other round trips; derived, never stored, so
	 * it cannot disagree with the figures above.
	 */
	@JsonProperty("projection")
	public @Nullable Projection projection() {
		return Projection.of(this);
	}

	/**
	 * As one of a comparison's or sweep's results: with its speedup, if any, and without
	 * the settings its container carries once.
	 */
	RunResult partOfMany(@Nullable Double value) {
		return new RunResult(this.ran, this.timing, this.counts, this.cluster, this.notes, value, this.load,
				this.connection, this.serverSide, this.limitedBy, null);
	}

	/**
	 * @param name {@code lettuce} or {@code jedis}
	 * @param connection {@code shared}: the template's calls went over one native
	 * connection (Lettuce); {@code pooled}: each call borrowed a connection from the pool
	 * (pipelines always do)
	 * @param pipelineWrites pipelined runs: how this connector writes a pipeline to the
	 * socket
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record ConnectorUse(String name, String connection, @Nullable String pipelineWrites) {
	}

	/**
	 * Counted on the server(s), right after the (last) timed pass, with
	 * {@code CLIENT LIST} and {@code INFO stats} on every master.
	 *
	 * @param used the run route's connections on which the masters saw the run's
	 * commands; on a cluster one per master for each client connection
	 * @param opened connections the masters accepted during the timed pass
	 * ({@code total_connections_received}): 0 when every connection was open beforehand
	 * @param countedBy how {@code used} was counted, in words
	 */
	public record ConnectionsUsed(int used, long opened, String countedBy) {

		public ConnectionsUsed(int used, long opened) {
			this(used, opened, ServerConnections.COUNTED_BY);
		}

	}

	/**
	 * @param count clients that ran at once, each on its own thread and key range
	 * @param opsPerSecond each client's own rate over its range: the spread between them
	 * @param perClient each client's share of the (last) timed pass
	 */
	public record ClientsReport(int count, Spread opsPerSecond, List<PerClient> perClient) {
	}

	public record Spread(double min, double median, double max) {
	}

	/**
	 * @param client 0 to clients - 1
	 * @param first the first item (key index) the client sent
	 * @param last the last item it sent
	 * @param items how many
	 * @param elapsedMillis from the common start until it finished
	 * @param opsPerSecond its items divided by its time
	 */
	public record PerClient(int client, long first, long last, long items, double elapsedMillis, double opsPerSecond) {
	}

}
