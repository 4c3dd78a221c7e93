package dev.pipelininglab.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class the fast loop ({@code ./mvnw test -DexcludedGroups=slow}, CONTRIBUTING.md)
 * leaves out; {@code ./mvnw verify} still runs it. Slow is what waits by its nature, not
 * a test to fix:
 * <ul>
 * <li>a failover or outage: a server killed or stopped (or the test JVM itself), and the
 * app's time-outs or the failover waited out;</li>
 * <li>a browser, an image build or an external tool (Chromium, Jib, newman, Docker);</li>
 * <li>a whole app started and stopped inside the test, in its own JVM or beside the
 * test's;</li>
 * <li>a clock: an offered rate, a {@code duration} or {@code max-run-time} waited out
 * (the arithmetic behind them has unit tests in the fast loop:
 * {@code run.PacerTests});</li>
 * <li>a Redis filled to its memory limit;</li>
 * <li>the endpoint contract on sentinel and cluster (the fast loop runs it on
 * standalone);</li>
 * <li>any other class that takes more than about 15 to 20 seconds on 2 cores (a million
 * commands, a load burst, thousands of bad requests).</li>
 * </ul>
 * A new test of one of these kinds takes this annotation; its base class does not add it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag(SlowTest.TAG)
public @interface SlowTest {

	/** The JUnit tag, for {@code -Dgroups} and {@code -DexcludedGroups}. */
	String TAG = "slow";

}
