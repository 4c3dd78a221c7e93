package dev.pipelininglab.web;

import java.time.Duration;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.web.tomcat.CallerConnection;
import dev.pipelininglab.run.RunObserver;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * What ends a GET run before its last command: the app shutting down, the run outliving
 * {@code lab.limits.max-run-time}, or its caller hanging up. Checked between round trips;
 * the first that holds is kept on the request, so the answer (and the log line) names it.
 * Jobs ({@code POST /runs}) have none of these: they outlive their caller by design and
 * are cancelled with {@code DELETE /runs/{id}}.
 */
@Component
public class GetRunStops {

	private static final String REASON = GetRunStops.class.getName() + ".reason";

	private static final String STARTED = GetRunStops.class.getName() + ".started";

	private final ShutdownSignal shutdown;

	private final Duration maxRunTime;

	GetRunStops(ShutdownSignal shutdown, LimitProperties limits) {
		this.shutdown = shutdown;
		this.maxRunTime = limits.maxRunTime();
	}

	/** Watches the run {@code request} asked for. */
	RunObserver of(HttpServletRequest request) {
		CallerConnection caller = CallerConnection.of(request);
		long started = System.nanoTime();
		long deadline = started + this.maxRunTime.toNanos();
		request.setAttribute(STARTED, started);
		return new RunObserver() {
			@Override
			public boolean cancelled() {
				Reason reason = GetRunStops.this.shutdown.stopping() ? Reason.SHUTDOWN
						: (System.nanoTime() - deadline > 0) ? Reason.MAX_RUN_TIME
								: caller.gone() ? Reason.CALLER_GONE : null;
				if (reason == null) {
					return false;
				}
				request.setAttribute(REASON, reason);
				return true;
			}
		};
	}

	/** Why the run {@code request} asked for was stopped, if this stopped it. */
	public static @Nullable Reason reason(HttpServletRequest request) {
		return (request.getAttribute(REASON) instanceof Reason reason) ? reason : null;
	}

	/** How long the run {@code request} asked for has been going. */
	public static Duration elapsed(HttpServletRequest request) {
		return (request.getAttribute(STARTED) instanceof Long started) ? Duration.ofNanos(System.nanoTime() - started)
				: Duration.ZERO;
	}

	public enum Reason {

		SHUTDOWN, MAX_RUN_TIME, CALLER_GONE

	}

}
