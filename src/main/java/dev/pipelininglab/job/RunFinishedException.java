package dev.pipelininglab.job;

import dev.pipelininglab.ProblemType;

/** A cancel request for a run that has already reached a final status. */
public class RunFinishedException extends RuntimeException {

	private final RunRecord run;

	public RunFinishedException(RunRecord run) {
		super(ProblemType.RUN_FINISHED.detail(run.id(), run.status()));
		this.run = run;
	}

	public RunRecord run() {
		return this.run;
	}

}
