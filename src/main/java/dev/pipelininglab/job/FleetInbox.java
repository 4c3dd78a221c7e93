package dev.pipelininglab.job;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import dev.pipelininglab.job.FleetChannel.Signal;
import dev.pipelininglab.job.FleetChannel.Type;
import dev.pipelininglab.redis.ServerCounters;
import dev.pipelininglab.run.RunCancelledException;
import org.jspecify.annotations.Nullable;

/**
 * What one fleet run has heard on this instance, guarded by itself, and when it started:
 * by this instance's clock and Redis', and the leader's INFO then.
 */
final class FleetInbox {

	private static final long CHECK_MILLIS = 100;

	/** Who a member takes the run's messages from; null on the leader. */
	final @Nullable String leader;

	private final List<Signal> signals = new ArrayList<>();

	volatile long signalled;

	volatile long at;

	volatile ServerCounters.@Nullable Snapshot before;

	/** On a member: the leader's record says it died or ended without its STOP. */
	private volatile boolean orphaned;

	synchronized void orphan() {
		this.orphaned = true;
		notifyAll();
	}

	/** On a member: the leader said STOP, or is gone. */
	boolean over() {
		return this.orphaned || first(Type.STOP) != null;
	}

	FleetInbox(@Nullable String leader) {
		this.leader = leader;
	}

	synchronized void add(Signal signal) {
		this.signals.add(signal);
		notifyAll();
	}

	synchronized List<Signal> all(Type type) {
		return this.signals.stream().filter((signal) -> signal.type() == type).toList();
	}

	@Nullable Signal first(Type type) {
		return all(type).stream().findFirst().orElse(null);
	}

	/** Until {@code done} or the deadline, checking {@code cancelled} in between. */
	synchronized void await(BooleanSupplier done, long deadline, BooleanSupplier cancelled) {
		while (!done.getAsBoolean() && System.nanoTime() - deadline < 0) {
			if (cancelled.getAsBoolean()) {
				throw new RunCancelledException();
			}
			try {
				wait(CHECK_MILLIS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new RunCancelledException();
			}
		}
	}

}
