package dev.pipelininglab.run;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import org.jspecify.annotations.Nullable;

import static dev.pipelininglab.run.LoopCeiling.figure;
import static dev.pipelininglab.run.RunService.round;

/**
 * What held a timed pass back ({@code limitedBy}), from figures read around it, never
 * inside it, and the answer's one round trip. The rule, its steps and thresholds:
 * docs/benchmark.md, "What held a run back"; the evidence fields: docs/api.md.
 * {@code inputs} stay in this process: a comparison judges its rows again once its loop
 * has given the round trip.
 */
public record Bottleneck(What what, Evidence evidence, String sentence, @JsonIgnore @Nullable Inputs inputs) {

	/** A few scheduler ticks decide a shorter pass. */
	static final double MIN_PASS_MILLIS = 2;

	static final double RATE_HELD = 0.95;

	static final double WAITING = 0.5;

	static final double BUSY = 0.85;

	static final double MACHINE_BUSY = 0.7;

	/**
	 * The client, the server and the round trips, taking turns, cover at least this share
	 * of the pass; less leaves the time to something none of them saw.
	 */
	static final double ACCOUNTED = 0.5;

	/** The JVM reads the process's CPU in 10 ms ticks. */
	static final double PROCESS_MIN_MILLIS = 100;

	public enum What {

		CLIENT, SERVER, NETWORK, ROUND_TRIP, RATE, UNDETERMINED;

		@JsonValue
		public String label() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

	}

	/** Shares of one core for a thread or a server, of all of them for the process. */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Evidence(@Nullable Double sendingThreadBusy, @Nullable Double eventLoopBusy,
			@Nullable Double processBusy, @Nullable Integer processors, @Nullable Double machineBusy,
			@Nullable Double serverBusy, @Nullable Map<String, Double> serverBusyByNode,
			@Nullable Boolean serversOnThisMachine, @Nullable Double roundTripWait, @Nullable Long roundTrips,
			@Nullable Double roundTripMillis, @Nullable Integer rateAsked, @Nullable Double rateAchieved) {
	}

	/** What one timed pass used, read around it; CPU in nanoseconds, -1 when not read. */
	record Measured(long passNanos, long cpuWindowNanos, long processNanos, double machineBusy, long sendingNanos,
			long eventLoopNanos, long serverWindowNanos, Map<String, Double> serverCpuSeconds, boolean serversLocal) {
	}

	/**
	 * What the rule reads besides the round trip: {@code roundTrips} over every client,
	 * {@code perRoundTrip} items each; {@code keptPace}: a time limit found every paced
	 * client waiting for its next round trip.
	 */
	record Inputs(Measured pass, int processors, long roundTrips, int perRoundTrip, int clients, int rateAsked,
			double achieved, boolean keptPace) {
	}

	/** Judged again at the answer's round trip; as it was once read back from JSON. */
	Bottleneck at(LoopCeiling.RoundTrip rtt) {
		return (this.inputs != null) ? judge(this.inputs, rtt) : this;
	}

	static Bottleneck judge(Inputs in, LoopCeiling.RoundTrip rtt) {
		Measured pass = in.pass();
		int processors = in.processors();
		double millis = pass.passNanos() / 1e6;
		Double sending = share(pass.sendingNanos(), pass.passNanos());
		Double eventLoop = share(pass.eventLoopNanos(), pass.cpuWindowNanos());
		Double process = (millis >= PROCESS_MIN_MILLIS)
				? share(pass.processNanos(), pass.cpuWindowNanos() * (long) processors) : null;
		Map<String, Double> byNode = new TreeMap<>();
		if (pass.serverWindowNanos() > 0) {
			pass.serverCpuSeconds()
				.forEach((node, seconds) -> byNode.put(node, round(seconds * 1e9 / pass.serverWindowNanos(), 3)));
		}
		Map.Entry<String, Double> busiestNode = byNode.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.orElse(null);
		Double server = (busiestNode != null) ? busiestNode.getValue() : null;
		long roundTrips = in.roundTrips();
		long perClient = roundTrips / Math.max(1, in.clients());
		// At most the whole pass: a round trip cannot wait longer than the pass it is in.
		Double waiting = (roundTrips > 0) ? share(Math.round(rtt.millis() * 1e6 * perClient), pass.passNanos()) : null;
		Double machine = (millis >= PROCESS_MIN_MILLIS && pass.machineBusy() >= 0)
				? round(Math.min(1, pass.machineBusy()), 3) : null;
		int rateAsked = in.rateAsked();
		Evidence evidence = new Evidence(sending, eventLoop, process, (process != null) ? processors : null, machine,
				server, (byNode.size() > 1) ? byNode : null, (server != null) ? pass.serversLocal() : null, waiting,
				(roundTrips > 0) ? roundTrips : null, (roundTrips > 0) ? rtt.millis() : null,
				(rateAsked > 0) ? rateAsked : null, (rateAsked > 0) ? in.achieved() : null);
		Words words = new Words(sending, eventLoop, server,
				(byNode.size() > 1 && busiestNode != null) ? busiestNode.getKey() : null);
		String trips = String.format(Locale.ROOT, "%,d round trips of %s ms (%s)", perClient, figure(rtt.millis()),
				rtt.from());
		if (millis < MIN_PASS_MILLIS) {
			return new Bottleneck(What.UNDETERMINED, evidence,
					String.format(Locale.ROOT,
							"undetermined: the pass took %s ms, too short to judge (at least %.0f"
									+ " ms); a larger count or a duration would tell",
							figure(millis), MIN_PASS_MILLIS),
					in);
		}
		if (rateAsked > 0 && in.keptPace() && in.achieved() < RATE_HELD * rateAsked) {
			return new Bottleneck(What.RATE, evidence, String.format(Locale.ROOT,
					"rate-bound: paced at %,d commands/s, its next round trip fell due only after the time limit, so"
							+ " it reached %,.0f a second%s; a batch leaves once all its commands are due, so smaller"
							+ " batches or a longer duration come closer to the rate",
					rateAsked, in.achieved(), words.with()), in);
		}
		if (rateAsked > 0 && in.achieved() >= RATE_HELD * rateAsked) {
			return new Bottleneck(What.RATE, evidence,
					String.format(Locale.ROOT,
							"rate-bound: the pass held the %,d commands/s asked for (%,.0f reached)%s;"
									+ " a higher rate, or none, would go faster",
							rateAsked, in.achieved(), words.with()),
					in);
		}
		if (waiting != null && waiting >= WAITING) {
			return new Bottleneck(What.NETWORK, evidence,
					"network-bound: waiting on " + trips + " took " + percent(waiting) + " of the pass" + words.with()
							+ "; fewer round trips (a pipeline or larger batches) would go faster",
					in);
		}
		double client = Math.max(orZero(sending), orZero(eventLoop));
		if (client >= BUSY || orZero(server) >= BUSY) {
			if (client >= orZero(server)) {
				return new Bottleneck(What.CLIENT, evidence,
						"client-bound: " + words.client() + " was busy " + percent(client) + " of the pass"
								+ words.whileServer() + "; more clients or more instances would go faster",
						in);
			}
			return new Bottleneck(What.SERVER, evidence,
					"server-bound: " + words.serverName() + " was busy " + percent(orZero(server)) + " of the pass"
							+ words.whileClient() + "; cheaper commands, or more masters in a cluster, would go faster",
					in);
		}
		// Under 100 ms the process is not read: its busiest threads are the least it
		// used.
		Bottleneck shared = shared(evidence, in,
				(process != null) ? process * processors : orZero(sending) + orZero(eventLoop),
				pass.serversLocal() ? byNode.values().stream().mapToDouble(Double::doubleValue).sum() : 0);
		if (shared != null) {
			return shared;
		}
		if (client + orZero(server) + orZero(waiting) >= ACCOUNTED) {
			String each = (in.perRoundTrip() == 1) ? "each command waited for its reply before the next was sent"
					: (perClient > 1) ? String.format(Locale.ROOT,
							"each batch of %,d waited for its replies before the next was sent", in.perRoundTrip())
							: String.format(Locale.ROOT, "its one batch of %,d was sent, run and answered in turn",
									in.perRoundTrip());
			return new Bottleneck(What.ROUND_TRIP, evidence,
					"round-trip-bound: " + each + ", so the client and the server took turns and neither was busy"
							+ " all of the pass" + words.with() + "; its " + trips + " were " + percent(orZero(waiting))
							+ " of it; "
							+ ((in.perRoundTrip() == 1) ? "a pipeline, or more clients,"
									: "more clients, whose batches overlap, or larger batches")
							+ " would go faster",
					in);
		}
		return new Bottleneck(What.UNDETERMINED, evidence,
				"undetermined: no figure reached its threshold (" + words.figures(waiting) + ") and together they"
						+ " leave most of the pass unaccounted for: the time went elsewhere (pauses, scheduling or"
						+ " other work on this machine)" + ((millis < PROCESS_MIN_MILLIS)
								? "; a pass of at least 100 ms would weigh the machine's processors too" : ""),
				in);
	}

	/** Step 5; null when the machine had processors to spare (or none was read). */
	private static @Nullable Bottleneck shared(Evidence evidence, Inputs in, double appCores, double serverCores) {
		int processors = in.processors();
		Double machine = evidence.machineBusy();
		double used = (machine != null) ? machine : (appCores + serverCores) / processors;
		if (used < MACHINE_BUSY) {
			return null;
		}
		double otherCores = (machine != null) ? Math.max(0, machine * processors - appCores - serverCores) : 0;
		String lead = String.format(Locale.ROOT,
				"this machine's %d processors were %s busy (the app used %s%s cores%s%s)", processors, percent(used),
				(evidence.processBusy() != null) ? "" : "at least ", cores(appCores),
				(serverCores > 0) ? ", Redis " + cores(serverCores) : "",
				(otherCores >= 0.05) ? ", other work " + cores(otherCores) : "");
		if (otherCores > appCores + serverCores) {
			return new Bottleneck(What.UNDETERMINED, evidence, "undetermined: " + lead
					+ ": other work took most of them, so these figures measure a shared machine; a quiet one would tell",
					in);
		}
		if (appCores >= serverCores) {
			return new Bottleneck(What.CLIENT, evidence,
					"client-bound: " + lead
							+ "; the app on processors of its own, or instances on other machines, would go faster",
					in);
		}
		return new Bottleneck(What.SERVER, evidence,
				"server-bound: " + lead + "; Redis on processors of its own would go faster", in);
	}

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

		String client() {
			return eventLoopBusier() ? "Lettuce's event loop" : "the sending thread";
		}

		@Nullable Double clientShare() {
			return eventLoopBusier() ? this.eventLoop : this.sending;
		}

		String serverName() {
			return (this.node != null) ? "the busiest server (" + this.node + ")" : "the server";
		}

		String whileServer() {
			return (this.server != null) ? " while " + serverName() + " was " + percent(this.server) + " busy" : "";
		}

		String whileClient() {
			Double share = clientShare();
			return (share != null) ? " while " + client() + " was " + percent(share) + " busy" : "";
		}

		String with() {
			String parts = Stream.of(busy(client(), clientShare()), busy(serverName(), this.server))
				.filter(Objects::nonNull)
				.collect(Collectors.joining(" and "));
			return parts.isEmpty() ? "" : ", with " + parts;
		}

		private static @Nullable String busy(String who, @Nullable Double share) {
			return (share != null) ? who + " " + percent(share) + " busy" : null;
		}

		String figures(@Nullable Double waiting) {
			String out = Objects.requireNonNullElse(busy(client(), clientShare()), client() + " not read") + ", "
					+ Objects.requireNonNullElse(busy(serverName(), this.server), serverName() + " not read");
			return (waiting != null) ? out + ", round trips " + percent(waiting) + " of the pass" : out;
		}

	}

	private static @Nullable Double share(long used, long of) {
		return (used < 0 || of <= 0) ? null : round(Math.min(1, (double) used / of), 3);
	}

	private static double orZero(@Nullable Double value) {
		return (value != null) ? value : 0;
	}

	private static String percent(double share) {
		return Math.round(share * 100) + "%";
	}

	/** Processors in use, to the hundredth: 0.60, 1.02. */
	private static String cores(double value) {
		return String.format(Locale.ROOT, "%.2f", value);
	}

}
