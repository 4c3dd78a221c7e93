package dev.pipelininglab.run;

/**
 * Thrown between batches when the observer asked to stop. What was sent before stays
 * sent.
 */
public class RunCancelledException extends RuntimeException {

	public RunCancelledException() {
		super("Run cancelled");
	}

}
