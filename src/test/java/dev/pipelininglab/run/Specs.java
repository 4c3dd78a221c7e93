package dev.pipelininglab.run;

import java.time.Duration;

import dev.pipelininglab.redis.FlushPolicy;
import org.jspecify.annotations.Nullable;

/**
 * Run specs for tests, built as the app builds them: with no values, no pacing, no time
 * limit and item {@code i} on key {@code i} unless a test asks otherwise.
 */
public final class Specs {

	private Specs() {
	}

	/** A single direct pass by one client on Lettuce, as the GET endpoints run. */
	public static RunSpec of(Operation operation, Mode mode, FlushPolicy flushPolicy, long count, int batchSize,
			int sample) {
		return new RunSpec(operation, mode, flushPolicy, count, batchSize, sample, null, null, 1, plain(),
				RunSpec.Senders.DEFAULT, null);
	}

	public static Workload plain() {
		return Workload.of(0, 1, Long.MAX_VALUE);
	}

	/** {@code plain()} with a time limit or a key walk. */
	public static Workload plain(@Nullable Duration duration, @Nullable KeyWalk walk) {
		return new Workload(0, 1, Long.MAX_VALUE, null, 0, duration, Ratio.DEFAULT, walk, 0);
	}

}
