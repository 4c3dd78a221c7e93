package dev.pipelininglab.run;

/**
 * Watches a run batch by batch, for progress bars and cancellation. Called on the thread
 * that runs the batches.
 */
public interface RunObserver {

	RunObserver NONE = new RunObserver() {
	};

	/**
	 * @param totalBatches batches the whole request will send, over every variant and
	 * repeat
	 */
	default void started(long totalBatches) {
	}

	default void batchDone() {
	}

	/**
	 * The run enters a phase: warming up, preparing keys, timing a variant, reading back.
	 * @param variant the variant it is for; empty for set-up shared by all
	 * @param batchSize the batch size being measured
	 * @param commands commands the phase sends
	 */
	default void phase(Phase phase, String variant, int batchSize, long commands) {
	}

	/** Commands of the current phase done since the last call. */
	default void commandsDone(long commands) {
	}

	/**
	 * Checked between batches, set-up ones included; true stops the run with
	 * {@link RunCancelledException}.
	 */
	default boolean cancelled() {
		return false;
	}

	/**
	 * Only the cancellation of {@code observer}, for untimed work whose progress is not
	 * reported (a warm-up through a slow relay can take a minute).
	 */
	static RunObserver cancellationOf(RunObserver observer) {
		return new RunObserver() {
			@Override
			public boolean cancelled() {
				return observer.cancelled();
			}
		};
	}

	/** What a run spends its time on, in the order a variant goes through them. */
	enum Phase {

		WARM_UP, PREPARING, TIMING, VERIFYING;

		public String label() {
			return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
		}

	}

}
