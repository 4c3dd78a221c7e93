package dev.pipelininglab.web;

/**
 * A request parameter outside what the lab accepts; becomes a 400 problem naming the
 * parameter.
 */
class InvalidParameterException extends RuntimeException {

	private final String parameter;

	InvalidParameterException(String parameter, String message) {
		super(parameter + " " + message);
		this.parameter = parameter;
	}

	String parameter() {
		return this.parameter;
	}

}
