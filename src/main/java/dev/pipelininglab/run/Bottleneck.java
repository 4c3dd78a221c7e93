package dev.pipelininglab.run;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import org.jspecify.annotations.Nullable;

/**
 * What held a timed pass back, from figures read around it, never inside it. The rule, in
 * this order (docs/benchmark.md):
 * <ol>
 * <li>{@code undetermined} when the pass took under {@value #MIN_PASS_MILLIS} ms;</li>
 * <li>{@code rate} when a rate was asked and the pass reached at least
 * {@value #RATE_HELD} of it;</li>
 * <li>{@code network} when waiting on round trips (measured RTT, the fastest of the run's
 * PINGs, x round trips per client) took at least {@value #WAITING} of the pass;</li>
 * <li>{@code client} or {@code server}, whichever is busier, when a sending thread, a
 * Lettuce thread or a server was busy at least {@value #BUSY} of the pass (share of one
 * core: each is one thread, so cannot use more);</li>
 * <li>when this machine's processors were at least {@value #MACHINE_BUSY} busy (as the OS
 * tells the JVM; else the app's process and the servers on loopback added up): the app or
 * the servers on this machine, whichever used more cores, as they competed for them;
 * {@code undetermined} when other work used more than both;</li>
 * <li>{@code undetermined} otherwise, with the figures.</li>
 * </ol>
 * The process's and the machine's CPU count only in passes of at least
 * {@value #PROCESS_MIN_MILLIS} ms: the JVM reads the process's in 10 ms ticks.
 *
 * @param what {@code client}, {@code server}, {@code network}, {@code rate} or
 * {@code undetermined}
 * @param evidence the figures the rule read
 * @param sentence what held the pass back and what would go faster, in words
 */
public record Bottleneck(What what, Evidence evidence, String sentence) {

	/** Shorter passes are not judged: a few scheduler ticks would decide. */
	static final double MIN_PASS_MILLIS = 20;

	/** As {@code offeredRate.held}. */
	static final double RATE_HELD = 0.95;

	static final double WAITING = 0.5;

	static final double BUSY = 0.85;

	static final double MACHINE_BUSY = 0.7;

	static final double PROCESS_MIN_MILLIS = 100;

	public enum What {

		CLIENT, SERVER, NETWORK, RATE, UNDETERMINED;

		@JsonValue
		public String label() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/**
	 * Shares are fractions: of one core for a thread or a server, of every processor for
	 * the process. A figure that could not be read is left out.
	 *
	 * @param sendingThreadBusy the busiest thread that sent the run's commands: a
	 * client's own, or {@code pipelined-by-node}'s per-node senders
	 * @param eventLoopBusy Lettuce runs: the busiest of Lettuce's own threads (event
	 * loops that encode, write and decode), counted as client
	 * @param processBusy the app's process, every thread (GC and JIT too), over its
	 * processors; passes of at least 100 ms
	 * @param processors the processors the JVM may use
	 * @param machineBusy the whole machine, as the OS (or the container) tells the JVM:
	 * the app, the servers when they run here, and any other work; passes of at least 100
	 * ms
	 * @param serverBusy the busiest server ({@code used_cpu_user + used_cpu_sys} of INFO)
	 * @param serverBusyByNode the same per node ({@code host:port}), when more than one
	 * @param serversOnThisMachine whether every server answered on loopback, so shares
	 * this machine's processors with the app
	 * @param roundTripWait the fastest PING x round trips per client over the pass, at
	 * most 1
	 * @param roundTrips round trips of the pass, over every client
	 * @param roundTripMillis the fastest of the PINGs measured before the run
	 * @param rateAsked runs with {@code rate}: commands per second asked for
	 * @param rateAchieved the same runs: commands per second reached
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Evidence(@Nullable Double sendingThreadBusy, @Nullable Double eventLoopBusy,
			@Nullable Double processBusy, @Nullable Integer processors, @Nullable Double machineBusy,
			@Nullable Double serverBusy, @Nullable Map<String, Double> serverBusyByNode,
			@Nullable Boolean serversOnThisMachine, @Nullable Double roundTripWait, @Nullable Long roundTrips,
			@Nullable Double roundTripMillis, @Nullable Integer rateAsked, @Nullable Double rateAchieved) {
	}

	/**
	 * What one timed pass used, read around it; CPU figures in nanoseconds, -1 when not
	 * read.
	 *
	 * @param passNanos the pass, from the clients' start to the last one's end
	 * @param cpuWindowNanos between the two readings of the app's clocks
	 * @param processNanos the process's CPU between them
	 * @param machineBusy how busy the whole machine was between them, as a share of its
	 * processors; -1 when not read
	 * @param sendingNanos the busiest sending thread's CPU over its share of the pass
	 * @param eventLoopNanos the busiest Lettuce thread's CPU; -1 for Jedis runs
	 * @param serverWindowNanos between the two INFO readings (their midpoints)
	 * @param serverCpuSeconds each node's CPU between them
	 * @param serversLocal whether every node's address is a loopback one
	 */
	record Measured(long passNanos, long cpuWindowNanos, long processNanos, double machineBusy, long sendingNanos,
			long eventLoopNanos, long serverWindowNanos, Map<String, Double> serverCpuSeconds, boolean serversLocal) {
	}

	/**
	 * @param roundTrips round trips of the pass over every client
	 * @param rttMillis the measured round trip: the fastest PING of the run's route
	 * @param rateAsked commands per second asked, 0 for none
	 * @param achieved commands per second reached
	 */
	static Bottleneck judge(Measured pass, int processors, long roundTrips, int clients, double rttMillis,
			int rateAsked, double achieved) {
		double millis = pass.passNanos() / 1e6;
		Double sending = share(pass.sendingNanos(), pass.passNanos(), 1);
		Double eventLoop = share(pass.eventLoopNanos(), pass.cpuWindowNanos(), 1);
		Double process = (millis >= PROCESS_MIN_MILLIS)
				? share(pass.processNanos(), pass.cpuWindowNanos() * (long) processors, 1) : null;
		Map<String, Double> byNode = new TreeMap<>();
		if (pass.serverWindowNanos() > 0) {
			pass.serverCpuSeconds()
				.forEach((node, seconds) -> byNode.put(node, round(seconds * 1e9 / pass.serverWindowNanos())));
		}
		Map.Entry<String, Double> busiestNode = byNode.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.orElse(null);
		Double server = (busiestNode != null) ? busiestNode.getValue() : null;
		// At most the whole pass: a round trip cannot wait longer than the pass it is in.
		Double waiting = (roundTrips > 0)
				? share(Math.round(rttMillis * 1e6 * roundTrips / Math.max(1, clients)), pass.passNanos(), 1) : null;
		Double machine = (millis >= PROCESS_MIN_MILLIS && pass.machineBusy() >= 0)
				? round(Math.min(1, pass.machineBusy())) : null;
		Evidence evidence = new Evidence(sending, eventLoop, process, (process != null) ? processors : null, machine,
				server, (byNode.size() > 1) ? byNode : null, (server != null) ? pass.serversLocal() : null, waiting,
				(roundTrips > 0) ? roundTrips : null, (roundTrips > 0) ? rttMillis : null,
				(rateAsked > 0) ? rateAsked : null, (rateAsked > 0) ? achieved : null);
		Words words = new Words(sending, eventLoop, server,
				(byNode.size() > 1 && busiestNode != null) ? busiestNode.getKey() : null);
		if (millis < MIN_PASS_MILLIS) {
			return new Bottleneck(What.UNDETERMINED, evidence,
					String.format(Locale.ROOT,
							"undetermined: the pass took %s ms, too short to judge (at least %.0f"
									+ " ms); a larger count or a duration would tell",
							figure(millis), MIN_PASS_MILLIS));
		}
		if (rateAsked > 0 && achieved >= RATE_HELD * rateAsked) {
			return new Bottleneck(What.RATE, evidence,
					String
						.format(Locale.ROOT,
								"rate-bound: the pass held the %,d commands/s asked for (%,.0f reached)%s;"
										+ " a higher rate, or none, would go faster",
								rateAsked, achieved, words.with()));
		}
		if (waiting != null && waiting >= WAITING) {
			return new Bottleneck(What.NETWORK, evidence, String.format(Locale.ROOT,
					"network-bound: waiting on %,d round trips of %s ms took %s of the pass%s; fewer round trips (a"
							+ " pipeline or larger batches) would go faster",
					roundTrips / Math.max(1, clients), figure(rttMillis), percent(waiting), words.with()));
		}
		double client = Math.max(orZero(sending), orZero(eventLoop));
		if (client >= BUSY || orZero(server) >= BUSY) {
			if (client >= orZero(server)) {
				return new Bottleneck(What.CLIENT, evidence,
						"client-bound: " + words.client() + " was busy " + percent(client) + " of the pass"
								+ words.whileServer() + "; more clients or more instances would go faster");
			}
			return new Bottleneck(What.SERVER, evidence,
					"server-bound: " + words.serverName() + " was busy " + percent(orZero(server)) + " of the pass"
							+ words.whileClient()
							+ "; cheaper commands, or more masters in a cluster, would go faster");
		}
		if (process != null) {
			Bottleneck shared = shared(evidence, process * processors,
					pass.serversLocal() ? byNode.values().stream().mapToDouble(Double::doubleValue).sum() : 0,
					processors);
			if (shared != null) {
				return shared;
			}
		}
		return new Bottleneck(What.UNDETERMINED, evidence,
				"undetermined: no figure reached its threshold (" + words.figures(waiting) + ")"
						+ ((millis < PROCESS_MIN_MILLIS)
								? "; a pass of at least 100 ms would weigh the machine's processors too"
								: "; the time went elsewhere: pauses, scheduling or other work on this machine"));
	}

	/**
	 * When this machine's processors were (nearly) all busy: the app or the servers on
	 * it, whichever used more, or undetermined when other work used more than both; null
	 * when the machine had processors to spare.
	 * @param appCores processors the app's process used
	 * @param serverCores processors the servers used, when they are on this machine
	 */
	private static @Nullable Bottleneck shared(Evidence evidence, double appCores, double serverCores, int processors) {
		Double machine = evidence.machineBusy();
		double used = (machine != null) ? machine : (appCores + serverCores) / processors;
		if (used < MACHINE_BUSY) {
			return null;
		}
		double otherCores = (machine != null) ? Math.max(0, machine * processors - appCores - serverCores) : 0;
		String lead = String.format(Locale.ROOT,
				"this machine's %d processors were %s busy (the app used %s cores%s%s)", processors, percent(used),
				cores(appCores), (serverCores > 0) ? ", Redis " + cores(serverCores) : "",
				(otherCores >= 0.05) ? ", other work " + cores(otherCores) : "");
		if (otherCores > appCores + serverCores) {
			return new Bottleneck(What.UNDETERMINED, evidence, "undetermined: " + lead
					+ ": other work took most of them, so these figures measure a shared machine; a quiet one would tell");
		}
		if (appCores >= serverCores) {
			return new Bottleneck(What.CLIENT, evidence, "client-bound: " + lead
					+ "; the app on processors of its own, or instances on other machines, would go faster");
		}
		return new Bottleneck(What.SERVER, evidence,
				"server-bound: " + lead + "; Redis on processors of its own would go faster");
	}

	/** Whether every address ({@code host:port}) is on this machine's loopback. */
	static boolean local(Collection<String> addresses) {
		return !addresses.isEmpty() && addresses.stream().allMatch((address) -> {
			String host = address.substring(0, Math.max(0, address.lastIndexOf(':')));
			return host.startsWith("127.") || host.equals("localhost") || host.equals("::1") || host.equals("[::1]");
		});
	}

	/** The figures in words, each only when it was read. */
	private record Words(@Nullable Double sending, @Nullable Double eventLoop, @Nullable Double server,
			@Nullable String node) {

		private boolean eventLoopBusier() {
			return this.eventLoop != null && (this.sending == null || this.eventLoop > this.sending);
		}

		/** The busier of the client's threads, by name. */
		String client() {
			return eventLoopBusier() ? "Lettuce's event loop" : "the sending thread";
		}

		@Nullable Double clientShare() {
			return eventLoopBusier() ? this.eventLoop : this.sending;
		}

		String serverName() {
			return (this.node != null) ? "the busiest server (" + this.node + ")" : "the server";
		}

		/** "while the server was 38% busy", or nothing when not read. */
		String whileServer() {
			return (this.server != null) ? " while " + serverName() + " was " + percent(this.server) + " busy" : "";
		}

		/** "while the sending thread was 40% busy", or nothing when not read. */
		String whileClient() {
			Double share = clientShare();
			return (share != null) ? " while " + client() + " was " + percent(share) + " busy" : "";
		}

		/**
		 * ", with the sending thread 3% busy and the server 2% busy", what was read of
		 * it.
		 */
		String with() {
			java.util.List<String> parts = new java.util.ArrayList<>();
			Double share = clientShare();
			if (share != null) {
				parts.add(client() + " " + percent(share) + " busy");
			}
			if (this.server != null) {
				parts.add(serverName() + " " + percent(this.server) + " busy");
			}
			return parts.isEmpty() ? "" : ", with " + String.join(" and ", parts);
		}

		String figures(@Nullable Double waiting) {
			Double share = clientShare();
			String out = client() + " " + ((share != null) ? percent(share) + " busy" : "not read") + ", "
					+ ((this.server != null) ? serverName() + " " + percent(this.server) + " busy"
							: serverName() + " not read");
			return (waiting != null) ? out + ", round trips " + percent(waiting) + " of the pass" : out;
		}

	}

	/** {@code used} over {@code of}, rounded; at most {@code cap}; null when not read. */
	private static @Nullable Double share(long used, long of, double cap) {
		if (used < 0 || of <= 0) {
			return null;
		}
		return round(Math.min(cap, (double) used / of));
	}

	private static double orZero(@Nullable Double value) {
		return (value != null) ? value : 0;
	}

	private static double round(double value) {
		return Math.round(value * 1000) / 1000.0;
	}

	static String percent(double share) {
		return Math.round(share * 100) + "%";
	}

	/** Processors in use, to the hundredth: 0.60, 1.02. */
	private static String cores(double value) {
		return String.format(Locale.ROOT, "%.2f", value);
	}

	/** Three significant digits at most: 0.0512, 1.23, 12.3, 123. */
	private static String figure(double value) {
		if (value == 0 || !Double.isFinite(value)) {
			return "0";
		}
		return new java.math.BigDecimal(value).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
	}

}
