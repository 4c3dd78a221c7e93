package dev.pipelininglab.run;

import java.util.List;

import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

import static dev.pipelininglab.run.RunService.round;

/**
 * What a run's throughput becomes at other round-trip times, from its own figures; the
 * model and its fields: docs/recipes.md, "What it becomes at your round trip". One client
 * on one connection: several overlap their round trips, which the model leaves out; and
 * unpaced: a paced run's time is its pace's, not its round trips'. At the answer's round
 * trip it gives what the run measured.
 */
public record Projection(String model, double measuredRttMillis, double measuredOpsPerSecond, double roundTripsPerItem,
		double workMillisPerItem, @Nullable Double serverMillisPerItem, @Nullable Double clientMillisPerItem,
		List<Point> points) {

	/** The round trips predicted for: loopback, a LAN, a zone, regions apart. */
	public static final List<Double> RTTS = List.of(0.1, 0.5, 1.0, 2.0, 5.0, 20.0);

	static final String MODEL = "opsPerSecond(rtt) = 1000 / (roundTripsPerItem x rtt + workMillisPerItem), rtt in"
			+ " ms: each round trip waits one RTT, the rest of the time (measured: elapsed minus round trips x"
			+ " measured RTT) stays as it was; one client, one connection";

	public record Point(double rttMillis, double opsPerSecond) {
	}

	/**
	 * Null where the model does not hold: several clients, a pace, or too short a run.
	 */
	static @Nullable Projection of(RunResult result) {
		if (result.connection().clients() != null || result.load().offeredRate() != null
				|| result.timing().elapsedMillis() <= 0 || result.commandsRan() < 1) {
			return null;
		}
		// What ran: a time limit counts the commands and round trips of every request.
		int requests = (result.load().fanOut() != null && result.load().timeLimit() == null)
				? result.load().fanOut().requests() : 1;
		double items = (double) result.commandsRan() * requests;
		double roundTrips = (double) result.ran().batches() * requests;
		double work = Math.max(result.timing().elapsedMillis() - roundTrips * result.timing().measuredRttMillis(), 0);
		double perItem = work / items;
		double tripsPerItem = roundTrips / items;
		Double server = serverMillisPerItem(result.serverSide().server(), items);
		Double client = (server != null) ? round(Math.max(perItem - server, 0), 9) : null;
		List<Point> points = RTTS.stream()
			.map((rtt) -> new Point(rtt, round(at(tripsPerItem, perItem, rtt), 0)))
			.toList();
		return new Projection(MODEL, result.timing().measuredRttMillis(), result.timing().opsPerSecond(),
				round(tripsPerItem, 9), round(perItem, 9), server, client, points);
	}

	public double opsPerSecondAt(double rttMillis) {
		return at(this.roundTripsPerItem, this.workMillisPerItem, rttMillis);
	}

	private static double at(double tripsPerItem, double workPerItem, double rttMillis) {
		return 1000 / (tripsPerItem * rttMillis + workPerItem);
	}

	private static @Nullable Double serverMillisPerItem(@Nullable ServerStats server, double items) {
		if (server == null || server.cpuMicrosPerCommand() == null) {
			return null;
		}
		return round(server.cpuMicrosPerCommand() * server.commands() / 1000 / items, 9);
	}

}
