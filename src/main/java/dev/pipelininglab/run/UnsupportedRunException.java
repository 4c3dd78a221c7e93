package dev.pipelininglab.run;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;

/**
 * The mode cannot run the operation here (for example a script on a cluster): a 400
 * naming {@code mode} or {@code connector}.
 */
public class UnsupportedRunException extends ProblemException {

	UnsupportedRunException(RunSpec spec, String parameter, String reason) {
		super(ProblemType.INVALID_PARAMETER,
				spec.operation().label() + " cannot run in mode " + spec.mode().label()
						+ (parameter.equals("connector") ? " with connector " + spec.senders().connector() : "") + ": "
						+ reason,
				"parameter", parameter);
	}

}
