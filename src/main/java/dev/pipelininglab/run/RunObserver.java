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

	/** Checked between batches; true stops the run with {@link RunCancelledException}. */
	default boolean cancelled() {
		return false;
	}

}
