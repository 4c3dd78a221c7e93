package dev.pipelininglab.run;

import java.util.List;

import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

/**
 * A {@link RunResult} for unit tests of the arithmetic that reads one (projection,
 * recommendation, loop ceiling, summaries): the figures that arithmetic reads, set in
 * words, and every other part empty.
 * {@code ResultOf.loop(1000).opsPerSecond(5000).build()} is a loop of 1,000 SETs that ran
 * at 5,000 ops/s; the elapsed time follows from the throughput and the other way round,
 * so the two never disagree.
 */
final class ResultOf {

	private final Mode mode;

	private final long count;

	private final int batchSize;

	private String variant;

	private double elapsedMillis;

	private double opsPerSecond;

	private double pingMillis = 0.1;

	private Latency latency;

	private @Nullable Integer clients;

	private @Nullable Integer requests;

	private @Nullable ServerStats server;

	private @Nullable Integer rate;

	private @Nullable Long ran;

	private @Nullable String flushPolicy;

	private @Nullable Double slowest;

	private @Nullable Double fastest;

	private ResultOf(Mode mode, long count, int batchSize) {
		this.mode = mode;
		this.count = count;
		this.batchSize = batchSize;
		this.variant = mode.label();
		this.latency = percentiles((mode == Mode.LOOP) ? Latency.Per.COMMAND : Latency.Per.BATCH, 0.1, 0.2);
		elapsedMillis(count / 10.0);
	}

	/** A loop: one command per round trip, latency per command. */
	static ResultOf loop(long count) {
		return new ResultOf(Mode.LOOP, count, 1);
	}

	/** A pipeline of {@code count} commands in batches of {@code batchSize}. */
	static ResultOf pipelined(long count, int batchSize) {
		return new ResultOf(Mode.PIPELINED, count, batchSize);
	}

	/** Any other mode: MSET, a script. */
	static ResultOf of(Mode mode, long count, int batchSize) {
		return new ResultOf(mode, count, batchSize);
	}

	/** A Lettuce pipeline's flush policy, as results name it. */
	ResultOf flushPolicy(String policy) {
		this.flushPolicy = policy;
		return this;
	}

	/** The slowest and fastest pass's rates: repeated passes. */
	ResultOf spread(double slowestOps, double fastestOps) {
		this.slowest = slowestOps;
		this.fastest = fastestOps;
		return this;
	}

	ResultOf variant(String label) {
		this.variant = label;
		return this;
	}

	/** The timed pass's wall time; the throughput follows. */
	ResultOf elapsedMillis(double millis) {
		this.elapsedMillis = millis;
		this.opsPerSecond = (millis > 0) ? items() * 1000 / millis : 0;
		return this;
	}

	/** The throughput; the wall time follows. */
	ResultOf opsPerSecond(double ops) {
		this.opsPerSecond = ops;
		this.elapsedMillis = items() * 1000 / ops;
		return this;
	}

	/** The median PING round trip measured before the run. */
	ResultOf pingMillis(double millis) {
		this.pingMillis = millis;
		return this;
	}

	/** The run's own latency: what one sample was, its median and 99th percentile. */
	ResultOf latency(Latency.Per per, double p50, double p99) {
		this.latency = percentiles(per, p50, p99);
		return this;
	}

	/** Several clients at once, each on its own connection. */
	ResultOf clients(int count) {
		this.clients = count;
		return this;
	}

	/** The run repeated as {@code count} requests (fan-out). */
	ResultOf requests(int count) {
		this.requests = count;
		return elapsedMillis(this.elapsedMillis);
	}

	/** Paced at {@code asked} commands a second, as measured. */
	ResultOf rate(int asked) {
		this.rate = asked;
		return this;
	}

	/**
	 * A time limit that ended the pass after {@code commands}; the throughput follows.
	 */
	ResultOf timeLimit(long commands) {
		this.ran = commands;
		return elapsedMillis(this.elapsedMillis);
	}

	/** What the servers counted: commands, CPU per command and the peak reply buffer. */
	ResultOf server(long commands, @Nullable Double cpuMicrosPerCommand, @Nullable Long peakOutputBufferBytes) {
		this.server = new ServerStats(commands, null, null, null, cpuMicrosPerCommand, null, null,
				peakOutputBufferBytes, null, null, null, null, null, null);
		return this;
	}

	RunResult build() {
		// A time limit counts the round trips that ran.
		long ran = (this.ran != null) ? this.ran : this.count;
		long batches = (ran + this.batchSize - 1) / this.batchSize;
		RunResult.ClientsReport clientsReport = (this.clients != null)
				? new RunResult.ClientsReport(this.clients,
						new RunResult.Spread(this.opsPerSecond, this.opsPerSecond, this.opsPerSecond), List.of())
				: null;
		RunResult.FanOut fanOut = (this.requests != null)
				? new RunResult.FanOut(this.requests, this.requests * 1000 / this.elapsedMillis) : null;
		return new RunResult(
				new RunResult.Ran(Operation.SET, this.mode, this.variant, this.flushPolicy, null, this.count,
						this.batchSize, batches, "standalone"),
				new RunResult.Timing(this.elapsedMillis, this.opsPerSecond, this.slowest, this.fastest,
						(this.slowest != null) ? 3 : 1, null, null, this.pingMillis, null),
				new RunResult.Counts(this.count, this.count, null, null, null, null, null, null),
				new RunResult.ClusterUse(null, null, null, null), new RunResult.Notes(null, List.of()), null, null,
				null,
				new RunResult.Load(this.latency, null, fanOut,
						(this.rate != null) ? new RunResult.OfferedRate(this.rate, this.opsPerSecond,
								this.opsPerSecond >= 0.95 * this.rate, "intended send time") : null,
						(this.ran != null) ? new TimeLimit(this.elapsedMillis / 1000, true, this.ran) : null, null),
				new RunResult.Connection(new RunResult.ConnectorUse("lettuce", "shared", null), null, clientsReport,
						null),
				new RunResult.ServerSide(this.server, null), null, null);
	}

	private double items() {
		return (this.ran != null) ? this.ran : (double) this.count * ((this.requests != null) ? this.requests : 1);
	}

	private static Latency percentiles(Latency.Per per, double p50, double p99) {
		return new Latency(per, 100, p50, p50, p99, p99, p99, null);
	}

}
