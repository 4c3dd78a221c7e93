package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

import static dev.pipelininglab.run.RunService.round;

/** A run's {@code note}: what the figures alone do not tell, a sentence each. */
final class RunNotes {

	private RunNotes() {
	}

	/** {@code sent}: all items, or those sent before a time limit. */
	static @Nullable String of(RunSpec spec, @Nullable String key, BatchRunner.@Nullable ClusterEffect effect,
			Tally tally, List<TimedPasses.Timed> passes, @Nullable ServerStats server, @Nullable ReadBack readBack,
			long sent) {
		return join(oneKeyNote(spec, key), (effect != null) ? effect.note() : null, shrunkNote(spec),
				(tally.values() > 0) ? null : spec.operation().command().nothingFound(), pauses(passes),
				evictions(server),
				(readBack != null)
						? readBack.shortfall(readBackExpected(spec, readBack, sent), server, spec.ttl() != null)
						: null);
	}

	/** Over a walked key space, each key some item wrote reads back once. */
	private static long readBackExpected(RunSpec spec, ReadBack readBack, long sent) {
		return (spec.workload().keyWalk() != null) ? readBack.verified() + readBack.missing() + readBack.changed()
				: sent;
	}

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
		String joined = Arrays.stream(notes).filter(Objects::nonNull).collect(Collectors.joining(" "));
		return joined.isEmpty() ? null : joined;
	}

	private static @Nullable String pauses(List<TimedPasses.Timed> passes) {
		String paused = IntStream.range(0, passes.size())
			.filter((i) -> passes.get(i).pausedNanos() > 0)
			.mapToObj((i) -> round(passes.get(i).pausedNanos() / 1e6, 1) + " ms of pass " + (i + 1))
			.collect(Collectors.joining(", "));
		return paused.isEmpty() ? null
				: "This process was not running for " + paused
						+ " (a stop-the-world GC, a stopped process or VM, or a machine too busy to schedule it);"
						+ " the pass times include it, so run again for clean figures.";
	}

	private static @Nullable String evictions(@Nullable ServerStats server) {
		Long evicted = (server != null) ? server.evictedKeys() : null;
		if (evicted == null || evicted == 0) {
			return null;
		}
		return "Redis evicted " + evicted + " keys during this run to stay under maxmemory: keys that are not the"
				+ " lab's may be among them.";
	}

}
