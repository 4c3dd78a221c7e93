package dev.pipelininglab.web;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;

/** A request parameter outside what the lab accepts: a 400 problem naming it. */
public class InvalidParameterException extends ProblemException {

	public InvalidParameterException(String parameter, String message) {
		super(ProblemType.INVALID_PARAMETER, parameter + " " + message, "parameter", parameter);
	}

}
