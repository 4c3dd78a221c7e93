package dev.pipelininglab.web.guard;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The app was asked to listen beyond loopback with neither credentials nor
 * {@code lab.security.open=true}: it stops before it opens the port.
 */
class ListenerRefused extends RuntimeException {

	private static final long serialVersionUID = 1L;

	static final String ACTION = "Set spring.security.user.name and spring.security.user.password"
			+ " (SPRING_SECURITY_USER_NAME and SPRING_SECURITY_USER_PASSWORD, in Kubernetes from a Secret) for HTTP"
			+ " Basic on every endpoint but the health probes; or lab.security.open=true (LAB_SECURITY_OPEN=true) if"
			+ " only you can reach the port, e.g. a container port published on 127.0.0.1; or listen on loopback"
			+ " (server.address=127.0.0.1, the default).";

	ListenerRefused(String where) {
		super("The app would listen on " + where + ", beyond loopback, without credentials: anyone who reaches the"
				+ " port could start runs on your Redis and delete the lab's keys, so it does not start. " + ACTION);
	}

	/** Boot's failure report: the reason and what to set, without a stack trace. */
	static class Analyzer extends AbstractFailureAnalyzer<ListenerRefused> {

		@Override
		protected FailureAnalysis analyze(Throwable rootFailure, ListenerRefused cause) {
			String message = String.valueOf(cause.getMessage());
			return new FailureAnalysis(message.substring(0, message.length() - ACTION.length()).trim(), ACTION, cause);
		}

	}

}
