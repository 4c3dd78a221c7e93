package dev.pipelininglab.job;

import dev.pipelininglab.ProblemType;

/**
 * No record for this id: it never existed, expired, or was removed with the demo keys.
 */
public class RunNotFoundException extends RuntimeException {

	private final String id;

	public RunNotFoundException(String id) {
		super(ProblemType.RUN_NOT_FOUND.detail(id));
		this.id = id;
	}

	public String id() {
		return this.id;
	}

}
