package dev.pipelininglab.web;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Tells GET runs that the app is shutting down, first thing: its phase stops it before
 * the web server's graceful shutdown starts waiting for in-flight requests, so a long run
 * stops between commands and answers, instead of holding the shutdown for its whole
 * length (or until the grace period kills it mid-batch).
 */
@Component
public class ShutdownSignal implements SmartLifecycle {

	private volatile boolean running;

	private volatile boolean stopping;

	public boolean stopping() {
		return this.stopping;
	}

	@Override
	public void start() {
		this.running = true;
		this.stopping = false;
	}

	@Override
	public void stop() {
		this.stopping = true;
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Above the web server's graceful shutdown phase: stopped before it. */
	@Override
	public int getPhase() {
		return DEFAULT_PHASE;
	}

}
