package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.redis.ClientSettings;
import dev.pipelininglab.redis.ClusterLayout;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.RedisDiagnosis;
import dev.pipelininglab.redis.Route;
import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.redis.ServerStats;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

import static dev.pipelininglab.run.RunService.median;
import static dev.pipelininglab.run.RunService.round;
import static dev.pipelininglab.run.RunService.setupBatch;

/**
 * Turns what a run's timed passes saw into its answer, after reading back what it wrote.
 */
@Component
record ResultAssembly(RunKeys data, ServerCounters server, RedisDiagnosis diagnosis, ClientSettings settings,
		Topology topology) {

	RunResult result(RunSpec spec, BatchRunner runner, KeySpace keys, Route route,
			ClusterLayout.@Nullable Spread spread, BatchRunner.@Nullable ClusterEffect effect,
			TimedPasses.Passes passes, double pingMillis, @Nullable Map<String, Double> nodeRttMillis,
			@Nullable RunObserver observer, Written written) {
		long[] passNanos = passes.nanos();
		ServerCounters.Usage usage = passes.usage();
		long count = spec.count();
		int perRoundTrip = (int) Math.min(runner.perRoundTrip(spec.batchSize()), count);
		ClientThreads.Outcome shown = passes.shown().outcome();
		// A time limit: what ran, and what the last pass left to read back.
		boolean timed = spec.workload().duration() != null;
		long items = timed ? shown.sent() : spec.itemsPerPass();
		ClientThreads.Outcome last = passes.timed().get(passes.timed().size() - 1).outcome();
		Tally tally = shown.tally(spec.sample());
		// Round trips of one request, over every client.
		long batches = (perRoundTrip == 1) ? (timed ? items : count) : (timed ? shown.batches() : spec.batches());
		// Passes by time send different counts: the shown pass's own time goes with its
		// items, so its rate is the median pass's, between the slowest and the fastest.
		double elapsedNanos = timed ? shown.nanos() : median(Arrays.stream(passNanos).asDoubleStream());
		List<Double> repeatMillis = (passNanos.length > 1)
				? Arrays.stream(passNanos).mapToObj((nanos) -> round(nanos / 1e6, 3)).toList() : null;
		Long verified = null;
		Command command = spec.operation().command().forRun(spec.workload());
		List<String> sample = tally.sample();
		ReadBack readBack = null;
		// No observer: a fleet's share, read back by its leader after the fleet's window.
		if (observer != null && command instanceof Command.Verified) {
			Tally read = new Tally(spec.sample());
			// A run's own ttl stays: the read-back gives its keys no other.
			Written expiring = (spec.ttl() == null) ? written : null;
			KeyWalk walk = spec.workload().keyWalk();
			if (walk != null && walk.repeatsKeys(count)) {
				// Replayed over the items that ran: a time limit leaves a prefix of each
				// client's range.
				readBack = this.data.verifyWalk(walk, keys, timed ? last.reached() : last.whole(), setupBatch(spec),
						spec.valueSize(), read, observer, expiring);
			}
			else {
				// A time limit reads back the ranges its clients sent.
				List<ClientThreads.Reach> ranges = timed ? last.reached() : List.of(new ClientThreads.Reach(0, count));
				readBack = this.data.verify(command, keys, ranges, setupBatch(spec), spec.valueSize(), read, observer,
						expiring);
			}
			verified = readBack.verified();
			sample = read.sample();
		}
		else if (observer != null && command instanceof IncrCommand) {
			// What the counter gained, as read back: exactly the INCRs sent when nothing
			// else touched it.
			verified = this.data.counter(keys) - passes.counterBefore();
		}
		// Once verified: what the servers evicted or expired over the whole run.
		ServerStats shownServer = passes.shown().server();
		ServerStats server = (shownServer != null) ? shownServer.withRunWide(passes.runBefore(), this.server.snapshot())
				: null;
		Double addedRttMillis = (route.addedRtt() != null) ? round(route.addedRtt().toNanos() / 1e6, 3) : null;
		boolean pipelined = spec.mode() == Mode.PIPELINED;
		String variant = Variant.of(spec, route.flushPolicy()).label();
		// Only buffered Lettuce pipelines and async batches hand several commands to
		// Netty at once; flush-each-command writes each on its own whichever endpoint it
		// is.
		FlushPolicy policy = route.flushPolicy();
		boolean buffers = route.connector() == Connector.LETTUCE && policy != null
				&& ((pipelined && policy.kind() != FlushPolicy.Kind.FLUSH_EACH_COMMAND) || spec.mode() == Mode.ASYNC);
		String writes = buffers ? route.writes().label() : null;
		RunResult.ConnectorUse connector = new RunResult.ConnectorUse(route.connector().label(),
				route.sharing().label(), pipelined ? route.connector().pipelineWrites() : null);
		RunResult.ConnectionsUsed connections = (usage != null)
				? new RunResult.ConnectionsUsed(usage.used(), usage.opened(), ServerCounters.COUNTED_BY) : null;
		double seconds = elapsedNanos / 1e9;
		RunResult.Payload payload = (spec.valueSize() > 0) ? new RunResult.Payload(spec.valueSize(),
				round(items * (double) spec.valueSize() / seconds, 0), spec.workload().batchSizeAsked(),
				(spec.workload().batchSizeAsked() != null) ? spec.workload().maxBatchBytes() : null) : null;
		RunResult.FanOut fanOut = (spec.workload().requests() > 1)
				? new RunResult.FanOut(spec.workload().requests(), round(spec.workload().requests() / seconds, 1))
				: null;
		double opsPerSecond = round(items / seconds, 1);
		String note = RunNotes.of(spec, spec.operation().key(keys), effect, tally, passes.timed(), server, readBack,
				(command instanceof Command.Verified each) ? each.readBackCount(timed ? last.sent() : count)
						: timed ? last.sent() : count);
		RunResult.Ran ran = new RunResult.Ran(spec.operation(), spec.mode(), variant,
				(pipelined && policy != null) ? policy.toString() : null, writes, count, perRoundTrip, batches,
				this.topology.kind().toString());
		// Each pass's own rate: a timed pass's items vary with the clock.
		DoubleSummaryStatistics passRates = passes.timed()
			.stream()
			.mapToDouble((pass) -> (timed ? pass.outcome().sent() : spec.itemsPerPass()) * 1e9
					/ Math.max(1, pass.outcome().nanos()))
			.summaryStatistics();
		Double slowest = (passRates.getCount() > 1) ? round(passRates.getMin(), 1) : null;
		Double fastest = (passRates.getCount() > 1) ? round(passRates.getMax(), 1) : null;
		RunResult.Timing timing = new RunResult.Timing(round(elapsedNanos / 1e6, 3), opsPerSecond, slowest, fastest,
				spec.repeat(), repeatMillis, addedRttMillis, pingMillis, nodeRttMillis);
		RunResult.Mix mix = (command instanceof MixedCommand mixed)
				? mixed.mix(shown, tally, seconds, shown.latencyByCommand()) : null;
		// A mix counts its SETs and GETs itself.
		RunResult.Counts counts = (mix != null)
				? new RunResult.Counts(mix.sets(), verified, mix.hits(), mix.misses(), null, null, null, mix)
				: command.counts(tally, verified);
		RunResult.ClusterUse cluster = new RunResult.ClusterUse((spread != null) ? spread.keysPerNode() : null,
				(spread != null) ? spread.slotsTouched() : null, (effect != null) ? effect.commands() : null,
				(tally.redirectsCount() > 0) ? tally.redirectsCount() : null);
		RunResult.Load load = new RunResult.Load(shown.latency(), payload, fanOut,
				RunResult.OfferedRate.of(spec.workload(), opsPerSecond), TimeLimit.of(spec.workload(), shown),
				RunResult.KeySpaceUse.of(spec.workload(), timed ? shown.reached() : shown.whole(), counts.hits(),
						counts.misses()));
		RunResult.Connection connection = new RunResult.Connection(connector, connections, clients(shown),
				this.diagnosis.sentinelMaster());
		// Round trips of the median pass, over every client and request; judged again at
		// the answer's round trip (LoopCeiling.oneRoundTrip).
		long roundTrips = (perRoundTrip == 1) ? shown.sent() : shown.batches();
		Bottleneck limitedBy = Bottleneck.judge(
				new Bottleneck.Inputs(passes.shown().cpu(), Runtime.getRuntime().availableProcessors(), roundTrips,
						perRoundTrip, shown.clients().size(), spec.workload().rate(), opsPerSecond, shown.keptPace()),
				new LoopCeiling.RoundTrip(pingMillis, LoopCeiling.FROM_PINGS));
		RunResult result = new RunResult(ran, timing, counts, cluster, new RunResult.Notes(note, sample), null, null,
				null, load, connection, new RunResult.ServerSide(server, passes.foreign()), limitedBy,
				this.settings.inEffect());
		// Its own round trip or its PINGs', until its answer gives it one.
		return LoopCeiling.oneRoundTrip(List.of(result)).get(0);
	}

	/** Null for a single client, whose figures are the run's. */
	private static RunResult.@Nullable ClientsReport clients(ClientThreads.Outcome outcome) {
		if (outcome.clients().size() == 1) {
			return null;
		}
		List<RunResult.PerClient> perClient = outcome.clients()
			.stream()
			.map((client) -> new RunResult.PerClient(client.index, client.first, client.first + client.done() - 1,
					client.done(), round(client.nanos / 1e6, 3), round(client.done() / (client.nanos / 1e9), 1)))
			.toList();
		double[] rates = perClient.stream().mapToDouble(RunResult.PerClient::opsPerSecond).sorted().toArray();
		return new RunResult.ClientsReport(perClient.size(),
				new RunResult.Spread(rates[0], round(median(Arrays.stream(rates)), 1), rates[rates.length - 1]),
				perClient);
	}

}
