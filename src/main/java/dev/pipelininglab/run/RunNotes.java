package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.List;

import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

import static dev.pipelininglab.run.RunService.round;

/**
 * Writes a run's {@code note}: what the figures alone do not tell, one sentence per thing
 * worth saying.
 */
final class RunNotes {

	private RunNotes() {
	}

	/**
	 * The note of a finished run; null when there is nothing to say.
	 * @param key the run's one key, if it has one
	 * @param readBack what SET and the one-key writes read back, when they did
	 * @param sent the items the read-back looked for: all of them, or what ran before a
	 * time limit
	 */
	static @Nullable String of(RunSpec spec, @Nullable String key, BatchRunner.@Nullable ClusterEffect effect,
			Tally tally, long[] pausedNanos, @Nullable ServerStats server, DemoData.@Nullable ReadBack readBack,
			long sent) {
		return join(oneKeyNote(spec, key), (effect != null) ? effect.note() : null, shrunkNote(spec),
				nothingFound(spec.operation(), tally), pauses(pausedNanos), Shortfall.evictions(server),
				(readBack != null)
						? Shortfall.reason(readBackExpected(spec, readBack, sent), readBack, server, spec.ttl() != null)
						: null);
	}

	/**
	 * How many items should read back: {@code count}, or over a walked key space the keys
	 * some item wrote, each read back once.
	 */
	private static long readBackExpected(RunSpec spec, DemoData.ReadBack readBack, long sent) {
		return (spec.workload().keyWalk() != null) ? readBack.verified() + readBack.missing() + readBack.changed()
				: sent;
	}

	/**
	 * Says so when a read or pop found nothing at all, since an ops/s figure alone would
	 * not tell.
	 */
	private static @Nullable String nothingFound(Operation operation, Tally tally) {
		return (tally.values() > 0) ? null : operation.command().nothingFound();
	}

	/**
	 * INCR, HSET, SADD, ZADD and the lists work on one key, as in redis-benchmark: the
	 * answer says so, and how the multi-key variant sends a batch.
	 */
	private static @Nullable String oneKeyNote(RunSpec spec, @Nullable String key) {
		if (key == null) {
			return null;
		}
		String what = spec.operation().command().oneKeyNote(spec, key);
		if (what == null) {
			return null;
		}
		String multi = (spec.operation().command() instanceof Command.MultiKey multiKey) ? multiKey.multiKeyForm()
				: null;
		return what + ((spec.mode() == Mode.MULTI_KEY && multi != null) ? ", " + multi + "." : ".");
	}

	private static @Nullable String shrunkNote(RunSpec spec) {
		Integer asked = spec.workload().batchSizeAsked();
		if (asked == null) {
			return null;
		}
		return "Batches of " + asked + " values of " + spec.valueSize()
				+ " bytes would exceed lab.limits.max-batch-bytes (" + spec.workload().maxBatchBytes()
				+ "), so they were shrunk to " + spec.batchSize() + ".";
	}

	private static @Nullable String join(@Nullable String... notes) {
		String joined = java.util.Arrays.stream(notes)
			.filter(java.util.Objects::nonNull)
			.collect(java.util.stream.Collectors.joining(" "));
		return joined.isEmpty() ? null : joined;
	}

	/**
	 * Pauses of this process inside timed passes: their time is in the figures, so the
	 * answer says so rather than passing it off as the client's or Redis's.
	 */
	private static @Nullable String pauses(long[] pausedNanos) {
		List<String> passes = new ArrayList<>();
		for (int i = 0; i < pausedNanos.length; i++) {
			if (pausedNanos[i] > 0) {
				passes.add(round(pausedNanos[i] / 1e6, 1) + " ms of pass " + (i + 1));
			}
		}
		return passes.isEmpty() ? null
				: "This process was not running for " + String.join(", ", passes)
						+ " (a stop-the-world GC, a stopped process or VM, or a machine too busy to schedule it);"
						+ " the pass times include it, so run again for clean figures.";
	}

}
