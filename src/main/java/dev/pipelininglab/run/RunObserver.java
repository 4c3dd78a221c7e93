package dev.pipelininglab.run;

/**
 * Watches a run batch by batch, for progress bars and cancellation. Called on the thread
 * that runs the batches.
 */
public interface RunObserver {

	RunObserver NONE = new RunObserver() {
	};

	/** Batches over every variant and repeat. */
	default void started(long totalBatches) {
	}

	default void batchDone() {
	}

	/** A variant's phase; its variant empty for set-up shared by all. */
	default void phase(Phase phase, String variant, int batchSize, long commands) {
	}

	/** Commands of the phase done since the last call. */
	default void commandsDone(long commands) {
	}

	/** Checked between batches, set-up ones included. */
	default boolean cancelled() {
		return false;
	}

	/** For untimed work whose progress is not reported, but which may take a minute. */
	static RunObserver cancellationOf(RunObserver observer) {
		return new RunObserver() {
			@Override
			public boolean cancelled() {
				return observer.cancelled();
			}
		};
	}

	/** In the order a variant goes through them. */
	enum Phase {

		WARM_UP, PREPARING, TIMING, VERIFYING;

		public String label() {
			return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
		}

	}

}
