package dev.pipelininglab.run;

/** Thrown between batches when the observer asked to stop; what was sent stays sent. */
public class RunCancelledException extends RuntimeException {

	public RunCancelledException() {
		super("Run cancelled");
	}

	static void throwIf(RunObserver observer) {
		if (observer.cancelled()) {
			throw new RunCancelledException();
		}
	}

}
