package dev.pipelininglab.run;

/**
 * The requested mode cannot run the operation on this topology (for example a script on a
 * cluster).
 */
public class UnsupportedRunException extends RuntimeException {

	UnsupportedRunException(RunSpec spec, String reason) {
		super(spec.operation().label() + " cannot run in mode " + spec.mode().label() + ": " + reason);
	}

}
