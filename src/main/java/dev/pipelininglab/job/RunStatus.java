package dev.pipelininglab.job;

/** Where a job is in its life; the last three are final. */
public enum RunStatus {

	/** Waiting for a free slot on the instance that accepted it. */
	QUEUED, RUNNING, DONE,

	/** Redis failed part-way, or the instance running it stopped updating its record. */
	FAILED,

	/** Stopped between batches on request, or because its instance shut down. */
	CANCELLED;

	public boolean terminal() {
		return this == DONE || this == FAILED || this == CANCELLED;
	}

}
