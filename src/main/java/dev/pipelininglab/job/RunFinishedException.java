package dev.pipelininglab.job;

/** A cancel request for a run that has already reached a final status. */
public class RunFinishedException extends RuntimeException {

	private final RunRecord run;

	public RunFinishedException(RunRecord run) {
		super("Run " + run.id() + " has already finished with status " + run.status() + "; there is nothing to cancel");
		this.run = run;
	}

	public RunRecord run() {
		return this.run;
	}

}
