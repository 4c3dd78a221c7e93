package dev.pipelininglab.run;

/** The mode cannot run the operation here (for example a script on a cluster). */
public class UnsupportedRunException extends RuntimeException {

	private final String parameter;

	UnsupportedRunException(RunSpec spec, String parameter, String reason) {
		super(spec.operation().label() + " cannot run in mode " + spec.mode().label()
				+ (parameter.equals("connector") ? " with connector " + spec.senders().connector() : "") + ": "
				+ reason);
		this.parameter = parameter;
	}

	/** {@code mode} or {@code connector}. */
	public String parameter() {
		return this.parameter;
	}

}
