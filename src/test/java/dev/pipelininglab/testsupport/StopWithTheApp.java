package dev.pipelininglab.testsupport;

import org.springframework.context.SmartLifecycle;

/**
 * Stops a test class's own redis-server when its application context stops, in the last
 * lifecycle phase: after the web server has drained and the Redis connection factory has
 * shut its clients down, so the app does not spend its last moments reconnecting to a
 * server that is already gone. (Stopping it in {@code @AfterAll} would be too early:
 * JUnit runs that before Spring closes a context marked dirty.)
 */
public final class StopWithTheApp implements SmartLifecycle {

	private final Runnable stop;

	private volatile boolean running;

	public StopWithTheApp(Runnable stop) {
		this.stop = stop;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.stop.run();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return Integer.MIN_VALUE;
	}

}
