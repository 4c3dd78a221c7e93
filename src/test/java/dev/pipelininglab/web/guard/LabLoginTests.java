package dev.pipelininglab.web.guard;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What a login costs and when it is refused unchecked, on {@link LabLogin} alone with a
 * clock of the test's (started near the end of {@code nanoTime}'s range, which has no
 * fixed origin). Over HTTP: {@code reliability.ListenerSecurityTests}.
 */
class LabLoginTests {

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private final AtomicLong nanos = new AtomicLong(Long.MAX_VALUE - Duration.ofSeconds(30).toNanos());

	@Test
	void aPlainPasswordIsADigestComparisonSoAThousandWrongOnesCostMilliseconds() {
		LabLogin login = new LabLogin("lab", "s3cret", this.nanos::get);
		long cpu = THREADS.getCurrentThreadCpuTime();
		for (int i = 0; i < 1000; i++) {
			// Each from an address of its own, so that every one is checked.
			String address = "10.0." + (i / 250) + "." + (i % 250);
			assertThatExceptionOfType(BadCredentialsException.class)
				.isThrownBy(() -> login.authenticate(basic("lab", "guess", address)));
			assertThatExceptionOfType(BadCredentialsException.class)
				.isThrownBy(() -> login.authenticate(basic("someone", "s3cret", address)));
		}
		Duration spent = Duration.ofNanos(THREADS.getCurrentThreadCpuTime() - cpu);
		// A bcrypt each, as a user store with a password encoder checks, would be
		// minutes.
		assertThat(spent).isLessThan(Duration.ofSeconds(1));
		assertThat(login.authenticate(basic("lab", "s3cret", "10.0.0.1")).isAuthenticated()).isTrue();
	}

	@Test
	void anEncodedPasswordIsCheckedOnceThenKnownByItsDigestForMinutesAndAnUnknownNameIsNeverChecked() {
		LabLogin login = new LabLogin("lab", "{bcrypt}" + new BCryptPasswordEncoder().encode("s3cret"),
				this.nanos::get);
		long cpu = THREADS.getCurrentThreadCpuTime();
		assertThat(login.authenticate(basic("lab", "s3cret", "10.0.0.1")).isAuthenticated()).isTrue();
		long checked = THREADS.getCurrentThreadCpuTime() - cpu;
		cpu = THREADS.getCurrentThreadCpuTime();
		for (int i = 0; i < 50; i++) {
			assertThat(login.authenticate(basic("lab", "s3cret", "10.0.0.1")).isAuthenticated()).isTrue();
			String address = "10.0.1." + i;
			assertThatExceptionOfType(BadCredentialsException.class)
				.isThrownBy(() -> login.authenticate(basic("someone", "s3cret", address)));
		}
		assertThat(THREADS.getCurrentThreadCpuTime() - cpu).as("50 known and 50 unknown names vs one bcrypt")
			.isLessThan(checked);

		// Known, the right credentials pass a blocked address; forgotten, they would need
		// the encoder, which a blocked address does not get.
		failTwentyTimes(login, "10.0.0.2");
		assertThat(login.authenticate(basic("lab", "s3cret", "10.0.0.2")).isAuthenticated()).isTrue();
		this.nanos.addAndGet(LabLogin.REMEMBERED.toNanos());
		failTwentyTimes(login, "10.0.0.2");
		assertThatExceptionOfType(LabLogin.TooManyFailures.class)
			.isThrownBy(() -> login.authenticate(basic("lab", "s3cret", "10.0.0.2")));
		assertThat(login.authenticate(basic("lab", "s3cret", "10.0.0.3")).isAuthenticated()).isTrue();
		assertThat(login.authenticate(basic("lab", "s3cret", "10.0.0.2")).isAuthenticated()).isTrue();
	}

	@Test
	void twentyFailuresWithinAMinuteAreFollowedBy429sUntilTheOldestLeavesTheMinuteWhileTheRightOnesPass() {
		LabLogin login = new LabLogin("lab", "s3cret", this.nanos::get);
		for (int second = 0; second < 20; second++) {
			assertThatExceptionOfType(BadCredentialsException.class)
				.isThrownBy(() -> login.authenticate(basic("lab", "guess", "10.0.0.1")));
			this.nanos.addAndGet(Duration.ofSeconds(1).toNanos());
		}
		// At 20 s: the failures of 0..19 s are within the minute. This one counts too, so
		// the oldest left is that of 1 s, out of the minute at 61 s.
		assertThatExceptionOfType(LabLogin.TooManyFailures.class)
			.isThrownBy(() -> login.authenticate(basic("lab", "guess", "10.0.0.1")))
			.satisfies((refused) -> assertThat(refused.retryAfterSeconds()).isEqualTo(41));
		assertThat(login.authenticate(basic("lab", "s3cret", "10.0.0.1")).isAuthenticated()).isTrue();
		assertThatExceptionOfType(BadCredentialsException.class).as("another address")
			.isThrownBy(() -> login.authenticate(basic("lab", "guess", "10.0.0.9")));

		this.nanos.addAndGet(Duration.ofMillis(41_500).toNanos());
		assertThatExceptionOfType(BadCredentialsException.class).as("at 61.5 s")
			.isThrownBy(() -> login.authenticate(basic("lab", "guess", "10.0.0.1")));
		// That failure took the place of the one of 1 s: the one of 2 s is the oldest
		// now,
		// and once this one counts, that of 3 s, out of the minute at 63 s.
		assertThatExceptionOfType(LabLogin.TooManyFailures.class).as("at 61.5 s")
			.isThrownBy(() -> login.authenticate(basic("lab", "guess", "10.0.0.1")))
			.satisfies((refused) -> assertThat(refused.retryAfterSeconds()).isEqualTo(2));
	}

	private static void failTwentyTimes(LabLogin login, String address) {
		for (int i = 0; i < LabLogin.FAILURES; i++) {
			assertThatExceptionOfType(BadCredentialsException.class)
				.isThrownBy(() -> login.authenticate(basic("someone", "guess", address)));
		}
	}

	private static Authentication basic(String name, String password, String address) {
		UsernamePasswordAuthenticationToken token = UsernamePasswordAuthenticationToken.unauthenticated(name, password);
		token.setDetails(new WebAuthenticationDetails(address, null));
		return token;
	}

}
