package dev.pipelininglab.job;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;

/** A cancel request for a run that has already reached a final status. */
public class RunFinishedException extends ProblemException {

	public RunFinishedException(RunRecord run) {
		super(ProblemType.RUN_FINISHED, ProblemType.RUN_FINISHED.detail(run.id(), run.status()), "id", run.id(),
				"runStatus", run.status());
	}

}
