package dev.pipelininglab.web;

/** A request parameter outside what the lab accepts: a 400 problem naming it. */
public class InvalidParameterException extends RuntimeException {

	private final String parameter;

	public InvalidParameterException(String parameter, String message) {
		super(parameter + " " + message);
		this.parameter = parameter;
	}

	public String parameter() {
		return this.parameter;
	}

}
