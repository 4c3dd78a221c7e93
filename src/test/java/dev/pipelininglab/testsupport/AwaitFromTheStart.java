package dev.pipelininglab.testsupport;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Every test's {@code await()} looks at its condition at once, then every 100 ms as
 * before. Awaitility's own default first waits a whole poll interval, so a condition that
 * already holds, as most do when a test asks, cost 100 ms each time.
 */
public final class AwaitFromTheStart implements LauncherSessionListener {

	@Override
	public void launcherSessionOpened(LauncherSession session) {
		Awaitility.setDefaultPollDelay(Duration.ZERO);
	}

}
