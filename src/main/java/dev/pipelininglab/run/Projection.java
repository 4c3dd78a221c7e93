package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.List;

import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

/**
 * What a run's throughput becomes at other round-trip times, from the run's own figures.
 * The model: a pass of {@code N} items takes {@code R} round trips (its batches;
 * {@code N} for the loop) and some work that does not wait for the network (client and
 * server time, loopback transfer). At the measured RTT {@code r0} that work is
 * {@code W = elapsed - R x r0}; at another RTT {@code r} the pass takes
 * {@code R x r + W}, so {@code opsPerSecond(r) = N / (R x r + W)}, or per item
 * {@code 1000 / (roundTripsPerItem x r + workMillisPerItem)} with {@code r} in ms. One
 * client on one connection: several clients overlap their round trips, and the model
 * leaves them out.
 *
 * @param model the formula, in words
 * @param measuredRttMillis the run's median PING round trip, {@code r0}
 * @param measuredOpsPerSecond the run's throughput at {@code r0}
 * @param roundTripsPerItem {@code R / N}: 1 for the loop, 1 / batchSize for a batch
 * @param workMillisPerItem {@code W / N}: time per item that is not waiting for the
 * network
 * @param serverMillisPerItem of that work, the servers' CPU per item (from
 * {@code server}), when they reported it
 * @param clientMillisPerItem the rest: the client's own time per item (and the loopback
 * transfer), when the server time is known
 * @param points predicted throughput at {@link #RTTS}
 */
public record Projection(String model, double measuredRttMillis, double measuredOpsPerSecond, double roundTripsPerItem,
		double workMillisPerItem, @Nullable Double serverMillisPerItem, @Nullable Double clientMillisPerItem,
		List<Point> points) {

	/** The round trips predicted for: loopback, a LAN, a zone, regions apart. */
	public static final List<Double> RTTS = List.of(0.1, 0.5, 1.0, 2.0, 5.0, 20.0);

	static final String MODEL = "opsPerSecond(rtt) = 1000 / (roundTripsPerItem x rtt + workMillisPerItem), rtt in"
			+ " ms: each round trip waits one RTT, the rest of the time (measured: elapsed minus round trips x"
			+ " measured RTT) stays as it was; one client, one connection";

	/** A predicted throughput at one RTT. */
	public record Point(double rttMillis, double opsPerSecond) {
	}

	/**
	 * The projection of a finished run, or null where the model does not hold: several
	 * clients, or a run too short to measure.
	 */
	static @Nullable Projection of(RunResult result) {
		if (result.connection().clients() != null || result.timing().elapsedMillis() <= 0 || result.ran().count() < 1) {
			return null;
		}
		int requests = (result.load().fanOut() != null) ? result.load().fanOut().requests() : 1;
		double items = (double) result.ran().count() * requests;
		double roundTrips = (double) result.ran().batches() * requests;
		double work = Math.max(result.timing().elapsedMillis() - roundTrips * result.timing().measuredRttMillis(), 0);
		double perItem = work / items;
		double tripsPerItem = roundTrips / items;
		Double server = serverMillisPerItem(result.serverSide().server(), items);
		Double client = (server != null) ? round(Math.max(perItem - server, 0), 9) : null;
		List<Point> points = new ArrayList<>();
		for (double rtt : RTTS) {
			points.add(new Point(rtt, round(at(tripsPerItem, perItem, rtt), 0)));
		}
		return new Projection(MODEL, result.timing().measuredRttMillis(), result.timing().opsPerSecond(),
				round(tripsPerItem, 9), round(perItem, 9), server, client, List.copyOf(points));
	}

	/** Throughput at {@code rttMillis}, by the model. */
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

	private static double round(double value, int decimals) {
		double scale = Math.pow(10, decimals);
		return Math.round(value * scale) / scale;
	}

}
