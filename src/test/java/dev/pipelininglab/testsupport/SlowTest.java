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
 * leaves out, so a change to the measuring core or the web layer gets an answer in about
 * a minute and a half; {@code ./mvnw verify} still runs it. Slow is what waits by its
 * nature, not a test to fix: a failover or outage (a server killed or stopped, and the
 * app's time-outs waited out), a browser, an image build or an external tool, a whole app
 * started and stopped in its own JVM or beside the test's, and any class that takes more
 * than about 20 seconds here (a million commands, a load burst, thousands of bad
 * requests, the endpoint contract on a cluster).
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
