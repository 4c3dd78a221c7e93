package dev.pipelininglab.job;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;

/**
 * No record for this id: it never existed, expired, or was removed with the demo keys.
 */
public class RunNotFoundException extends ProblemException {

	public RunNotFoundException(String id) {
		super(ProblemType.RUN_NOT_FOUND, ProblemType.RUN_NOT_FOUND.detail(id), "id", id);
	}

}
