package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * Runs one pass of a run with {@code clients} threads: each takes its own contiguous
 * range of the items (client {@code k} of {@code C} gets {@code [k*count/C,
 * (k+1)*count/C)}, so the ranges are disjoint and leave no gap), all wait at one gate and
 * start together, and each batches its own range. One client runs on the calling thread.
 * Every round trip (every command for the loop, every batch otherwise) is timed into the
 * client's histogram; with fan-out ({@code requests}), each client sends its range once
 * per request and the histogram times whole requests instead. With a time limit
 * ({@code duration}) each client stops at the first round trip that would start after it,
 * so what ran is a prefix of each client's range, over the whole limit: a paced client
 * whose next round trip falls due after it has sent what its pace offered in that time.
 */
final class ClientThreads {

	private ClientThreads() {
	}

	static long from(long count, int clients, int client) {
		return count * client / clients;
	}

	static long to(long count, int clients, int client) {
		return from(count, clients, client + 1);
	}

	interface Work {

		void run(long from, long to, Tally tally);

	}

	/** {@code roundTrip}: items per round trip, to time each one. */
	static Outcome run(RunSpec spec, int roundTrip, Latency.Per per, Work work, RunObserver observer) {
		int clients = spec.clients();
		AtomicBoolean stop = new AtomicBoolean();
		// Commands timed one by one are also timed per command when a run mixes them.
		Command command = spec.operation().command().forRun(spec.workload());
		Command split = (per == Latency.Per.COMMAND && command instanceof MixedCommand) ? command : null;
		long first = spec.workload().first();
		List<Client> runs = IntStream.range(0, clients)
			.mapToObj((k) -> new Client(k, first + from(spec.count(), clients, k), first + to(spec.count(), clients, k),
					spec.sample(), per, split))
			.toList();
		if (clients == 1) {
			long start = System.nanoTime();
			runs.get(0).run(spec, roundTrip, work, observer, stop);
			return new Outcome(System.nanoTime() - start, runs);
		}
		CountDownLatch ready = new CountDownLatch(clients);
		CountDownLatch go = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>(clients);
		for (Client client : runs) {
			Thread thread = new Thread(() -> {
				ready.countDown();
				try {
					go.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
				client.run(spec, roundTrip, work, observer, stop);
			}, "run-client-" + client.index);
			thread.setDaemon(true);
			threads.add(thread);
			thread.start();
		}
		try {
			ready.await();
			long start = System.nanoTime();
			go.countDown();
			for (Thread thread : threads) {
				thread.join();
			}
			return new Outcome(System.nanoTime() - start, runs);
		}
		catch (InterruptedException ex) {
			stop.set(true);
			go.countDown();
			Thread.currentThread().interrupt();
			throw new RunCancelledException();
		}
	}

	static final class Client {

		final int index;

		final long first;

		final long end;

		final Tally tally;

		/** Round trips, or requests, in nanoseconds: each client keeps its own. */
		final Histogram latency = histogram();

		final Latency.Per per;

		/** A mix timed command by command: the run's command, which names each item's. */
		private final @Nullable Command split;

		final Map<String, Histogram> byCommand = new TreeMap<>();

		long nanos;

		long batches;

		/** Over every request. */
		long sent;

		/** The end of the prefix of its range sent at least once. */
		long reached;

		/**
		 * Handed to the connection, replied to or not: what Redis may have executed when
		 * a stop or a failure cut a round trip short.
		 */
		long attempted;

		boolean timeUp;

		/** Time was up while its pace had its next round trip not yet due. */
		boolean keptPace;

		@Nullable RuntimeException failure;

		/** -1 when not read. */
		volatile long cpuNanos = -1;

		Client(int index, long first, long end, int sample, Latency.Per per, @Nullable Command split) {
			this.per = per;
			this.split = split;
			this.index = index;
			this.first = first;
			this.end = end;
			this.tally = new Tally(sample);
		}

		/** Paced round trips are timed from when they were due. */
		void run(RunSpec spec, int roundTrip, Work work, RunObserver observer, AtomicBoolean stop) {
			boolean perRequest = this.per == Latency.Per.REQUEST;
			int batchSize = spec.batchSize();
			// A request's batch goes in one piece, timed with the whole request.
			int step = perRequest ? batchSize : roundTrip;
			long cpu = CpuTime.thread();
			long start = System.nanoTime();
			Workload workload = spec.workload();
			Pacer pacer = (workload.rate() > 0) ? Pacer.of(workload.rate(), spec.clients(), start) : null;
			Long deadline = (workload.duration() != null) ? start + workload.duration().toNanos() : null;
			long itemsSent = 0;
			try {
				for (int request = 0; request < workload.requests(); request++) {
					long requestStart = System.nanoTime();
					for (long from = this.first; from < this.end; from += batchSize) {
						if (stop.get()) {
							return;
						}
						RunCancelledException.throwIf(observer);
						long to = Math.min(this.end, from + batchSize);
						for (long item = from; item < to; item += step) {
							// A loop's batch at rtt=1000 takes thousands of seconds.
							if (item > from && (stop.get() || observer.cancelled())) {
								throw new RunCancelledException();
							}
							long end = Math.min(to, item + step);
							if (timeUp(deadline, pacer, itemsSent, end - item)) {
								return;
							}
							long sent = (pacer != null) ? pacer.awaitTurn(itemsSent, end - item, observer)
									: System.nanoTime();
							if (perRequest && pacer != null && item == this.first) {
								// Timed from when its first batch was due.
								requestStart = sent;
							}
							this.attempted = Math.max(this.attempted, end);
							work.run(item, end, this.tally);
							if (!perRequest) {
								long nanos = Math.max(0, System.nanoTime() - sent);
								this.latency.recordValue(nanos);
								if (this.split != null) {
									this.byCommand
										.computeIfAbsent(this.split.forItem(item).name(), (name) -> histogram())
										.recordValue(nanos);
								}
							}
							itemsSent += end - item;
							this.sent = itemsSent;
							this.reached = Math.max(this.reached, end);
						}
						this.batches++;
						observer.batchDone();
						observer.commandsDone(to - from);
					}
					if (perRequest) {
						this.latency.recordValue(Math.max(0, System.nanoTime() - requestStart));
					}
				}
			}
			catch (RuntimeException ex) {
				this.failure = ex;
				// The others stop at their next batch, so a failed run ends soon.
				stop.set(true);
			}
			finally {
				long took = System.nanoTime() - start;
				this.nanos = (this.timeUp && deadline != null) ? Math.max(took, deadline - start) : took;
				long cpuNow = CpuTime.thread();
				this.cpuNanos = (cpu >= 0 && cpuNow >= 0) ? cpuNow - cpu : -1;
			}
		}

		/**
		 * A paced round trip counts at its due time: a slow rate never waits past the
		 * limit.
		 */
		private boolean timeUp(@Nullable Long deadline, @Nullable Pacer pacer, long itemsSent, long items) {
			if (deadline == null) {
				return false;
			}
			long now = System.nanoTime();
			long next = (pacer != null) ? Math.max(now, pacer.due(itemsSent, items)) : now;
			this.timeUp = next - deadline >= 0;
			this.keptPace = this.timeUp && next > now;
			return this.timeUp;
		}

		/** In one request: its range, or the prefix time allowed. */
		long done() {
			return this.timeUp ? this.reached - this.first : this.end - this.first;
		}

	}

	/** {@code nanos}: from the start gate to the last client's end, or its limit. */
	record Outcome(long nanos, List<Client> clients) {

		Outcome {
			nanos = Math.max(nanos, clients.stream().mapToLong((client) -> client.nanos).max().orElse(0));
		}

		@Nullable RuntimeException failure() {
			return this.clients.stream()
				.map((client) -> client.failure)
				.filter(Objects::nonNull)
				.findFirst()
				.orElse(null);
		}

		/** -1 when not read. */
		long busiestSender() {
			return this.clients.stream().mapToLong((client) -> client.cpuNanos).max().orElse(-1);
		}

		long batches() {
			return this.clients.stream().mapToLong((client) -> client.batches).sum();
		}

		long sent() {
			return this.clients.stream().mapToLong((client) -> client.sent).sum();
		}

		List<Reach> reached() {
			return this.clients.stream().map((client) -> new Reach(client.first, client.reached)).toList();
		}

		List<Reach> whole() {
			return this.clients.stream().map((client) -> new Reach(client.first, client.end)).toList();
		}

		List<Reach> attempted() {
			return this.clients.stream()
				.map((client) -> new Reach(client.first, Math.max(client.first, client.attempted)))
				.toList();
		}

		/** Every client the limit stopped was waiting for its pace, none behind it. */
		boolean keptPace() {
			return timeUp() && this.clients.stream().allMatch((client) -> !client.timeUp || client.keptPace);
		}

		boolean timeUp() {
			return this.clients.stream().anyMatch((client) -> client.timeUp);
		}

		/** In client order, so the sample starts with item 0. */
		Tally tally(int sample) {
			Tally all = new Tally(sample);
			this.clients.forEach((client) -> all.add(client.tally));
			return all;
		}

		/** Null unless a mix was timed command by command. */
		@Nullable Map<String, Latency> latencyByCommand() {
			Map<String, Histogram> all = new TreeMap<>();
			this.clients.forEach((client) -> client.byCommand
				.forEach((name, times) -> all.computeIfAbsent(name, (each) -> histogram()).add(times)));
			if (all.isEmpty()) {
				return null;
			}
			Map<String, Latency> latencies = new TreeMap<>();
			all.forEach((name, times) -> latencies.put(name, Latency.of(Latency.Per.COMMAND, times)));
			return latencies;
		}

		Latency latency() {
			Histogram all = histogram();
			this.clients.forEach((client) -> all.add(client.latency));
			return Latency.of(this.clients.get(0).per, all);
		}

	}

	/** Within 0.1% at any magnitude, at a few tens of kilobytes per histogram. */
	private static Histogram histogram() {
		return new Histogram(3);
	}

	/** {@code from} inclusive, {@code to} exclusive. */
	record Reach(long from, long to) {
	}

}
