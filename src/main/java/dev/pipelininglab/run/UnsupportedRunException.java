package dev.pipelininglab.run;

/**
 * The requested mode cannot run the operation on this topology (for example a script on a
 * cluster).
 */
public class UnsupportedRunException extends RuntimeException {

	private final String parameter;

	UnsupportedRunException(RunSpec spec, String parameter, String reason) {
		super(spec.operation().label() + " cannot run in mode " + spec.mode().label()
				+ (parameter.equals("connector") ? " with connector " + spec.senders().connector() : "") + ": "
				+ reason);
		this.parameter = parameter;
	}

	/** The request parameter that asked for what cannot be done: mode or connector. */
	public String parameter() {
		return this.parameter;
	}

}
