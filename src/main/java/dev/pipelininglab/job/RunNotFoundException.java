package dev.pipelininglab.job;

/**
 * No record for this id: it never existed, expired, or was removed with the demo keys.
 */
public class RunNotFoundException extends RuntimeException {

	private final String id;

	public RunNotFoundException(String id) {
		super("No run with id '" + id + "': it never existed, its record expired, or DELETE /keys removed it");
		this.id = id;
	}

	public String id() {
		return this.id;
	}

}
