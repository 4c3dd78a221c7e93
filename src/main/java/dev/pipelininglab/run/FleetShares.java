package dev.pipelininglab.run;

import java.util.List;
import java.util.stream.IntStream;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.ServerCounters;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * What a fleet's leader learns of its members from Redis rather than from their reports:
 * each share read back once after the fleet's window (members run with
 * {@link RunService#runShare} and read nothing back, so the window holds the timed passes
 * alone and a fleet run costs Redis the untimed work of a single run of its count), the
 * expiry of every key the run may have written, and the commands the window saw beyond
 * the members' own.
 */
@Component
public class FleetShares {

	private final Runners runners;

	private final RunKeys data;

	private final KeySpace keys;

	private final Safeguards safeguards;

	private final TimedPasses passes;

	FleetShares(Runners runners, RunKeys data, KeySpace keys, Safeguards safeguards, TimedPasses passes) {
		this.runners = runners;
		this.data = data;
		this.keys = keys;
		this.safeguards = safeguards;
		this.passes = passes;
	}

	/**
	 * Every key {@code whole} may write, each share's read back before the rest expire.
	 */
	public Keys keysOf(RunSpec whole) {
		Written written = new Written();
		long first = whole.workload().first();
		written.items(whole, this.runners.of(whole).keySpace(this.keys), first, first + whole.count());
		return new Keys(whole, written);
	}

	/** A fleet run's keys, as a run's {@link Written} keeps them. */
	public final class Keys {

		private final RunSpec whole;

		private final Written written;

		private Keys(RunSpec whole, Written written) {
			this.whole = whole;
			this.written = written;
		}

		/**
		 * Null for a run that writes nothing to read back (GET). The read-back gives what
		 * it reads its expiry (GETEX), unless the SETs carried a {@code ttl} of their
		 * own.
		 */
		public @Nullable ReadBack readBack(RunSpec share, RunObserver observer) {
			Command command = share.operation().command().forRun(share.workload());
			if (!(command instanceof Command.Verified)) {
				return null;
			}
			long first = share.workload().first();
			return FleetShares.this.data.verify(command,
					FleetShares.this.runners.of(share).keySpace(FleetShares.this.keys),
					List.of(new ClientThreads.Reach(first, first + share.count())), RunService.setupBatch(share),
					share.valueSize(), new Tally(0), observer, (this.whole.ttl() == null) ? this.written : null);
		}

		/**
		 * Every key not read back gets its expiry: a stopped member's share too (EXPIRE
		 * on an absent key does nothing).
		 */
		public void expireRest() {
			FleetShares.this.safeguards.leavingExpiry(this.whole, this.written, () -> this.written);
		}

	}

	/**
	 * The commands the servers processed over the window beyond what every share sent, or
	 * null within the bookkeeping any run's pass allows ({@link TimedPasses}).
	 * @param results each share's, in the same order
	 */
	public @Nullable Long foreign(List<RunSpec> shares, List<RunResult> results,
			ServerCounters.@Nullable Processed processed, long windowNanos) {
		long sent = IntStream.range(0, shares.size())
			.mapToLong((i) -> this.passes.sentPerPass(shares.get(i), results.get(i).cluster().commands()))
			.sum();
		return TimedPasses.beyondBookkeeping(processed, sent, windowNanos);
	}

}
