package dev.pipelininglab.web.guard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.authentication.WebAuthenticationDetails;
import org.springframework.util.ConcurrentLruCache;

/**
 * HTTP Basic against {@code spring.security.user.*} at a cost a measurement beside it
 * does not notice. A user store with a {@code PasswordEncoder} checks a bcrypt (about 80
 * ms of CPU) per request, for an unknown name too, and upgrades a plain password to one
 * on the first login; here a plain password is a constant-time comparison of digests, an
 * encoded one ({@code {bcrypt}...}) is checked once and then known by the digest of what
 * was presented for {@link #REMEMBERED}, and an address with {@link #FAILURES} failures
 * within {@link #WINDOW} is answered {@link TooManyFailures} before any check: the right
 * credentials still pass, as long as they cost no encoder's check.
 */
final class LabLogin implements AuthenticationProvider {

	static final int FAILURES = 20;

	static final Duration WINDOW = Duration.ofMinutes(1);

	static final Duration REMEMBERED = Duration.ofMinutes(10);

	/** Addresses with recent failures kept at once, the least recently failed dropped. */
	private static final int ADDRESSES = 4096;

	/**
	 * Digests are salted per process, so the one kept in memory is no dictionary's entry.
	 */
	private final byte[] salt = new byte[16];

	private final String name;

	private final String password;

	private final @Nullable PasswordEncoder encoder;

	private final LongSupplier nanoClock;

	private final ConcurrentLruCache<String, Failures> failures = new ConcurrentLruCache<>(ADDRESSES,
			(address) -> new Failures());

	/**
	 * The right credentials' digest: from the start if plain, once checked if encoded.
	 */
	private volatile @Nullable Known known;

	LabLogin(String name, String password, LongSupplier nanoClock) {
		this.name = name;
		this.password = password;
		this.nanoClock = nanoClock;
		new SecureRandom().nextBytes(this.salt);
		// As Boot reads it: {bcrypt}... names its encoding, else plain.
		boolean encoded = password.matches("\\{.+}.*");
		this.encoder = encoded ? PasswordEncoderFactories.createDelegatingPasswordEncoder() : null;
		this.known = encoded ? null : new Known(digest(name, password), Long.MAX_VALUE);
	}

	@Override
	public Authentication authenticate(Authentication authentication) {
		String presentedName = authentication.getName();
		String presentedPassword = String.valueOf(authentication.getCredentials());
		byte[] presented = digest(presentedName, presentedPassword);
		long now = this.nanoClock.getAsLong();
		Known known = this.known;
		if (known != null && known.admits(presented, now)) {
			return signedIn(presentedName);
		}
		Failures failures = this.failures.get(address(authentication));
		if (failures.waitNanos(now) > 0) {
			failures.add(now);
			throw new TooManyFailures(failures.waitNanos(now));
		}
		if (this.encoder != null && this.name.equals(presentedName)
				&& this.encoder.matches(presentedPassword, this.password)) {
			this.known = new Known(presented, now + REMEMBERED.toNanos());
			return signedIn(presentedName);
		}
		failures.add(now);
		throw new BadCredentialsException("Bad credentials");
	}

	@Override
	public boolean supports(Class<?> authentication) {
		return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
	}

	private static Authentication signedIn(String name) {
		return UsernamePasswordAuthenticationToken.authenticated(name, null, AuthorityUtils.NO_AUTHORITIES);
	}

	private static String address(Authentication authentication) {
		return (authentication.getDetails() instanceof WebAuthenticationDetails details)
				? String.valueOf(details.getRemoteAddress()) : "";
	}

	private byte[] digest(String name, String password) {
		try {
			MessageDigest sha = MessageDigest.getInstance("SHA-256");
			sha.update(this.salt);
			return sha.digest((name + ':' + password).getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every JVM has SHA-256", ex);
		}
	}

	/** Until is a {@link System#nanoTime} reading; {@code Long.MAX_VALUE} is forever. */
	private record Known(byte[] digest, long until) {

		boolean admits(byte[] presented, long now) {
			return MessageDigest.isEqual(this.digest, presented)
					&& (this.until == Long.MAX_VALUE || now - this.until < 0);
		}

	}

	/** The times of an address's last {@link #FAILURES} failures, oldest next. */
	private static final class Failures {

		private final long[] times = new long[FAILURES];

		private int count;

		private int oldest;

		synchronized void add(long now) {
			this.times[this.oldest] = now;
			this.oldest = (this.oldest + 1) % FAILURES;
			this.count = Math.min(this.count + 1, FAILURES);
		}

		/** How long until fewer than {@link #FAILURES} fall within the window; 0 now. */
		synchronized long waitNanos(long now) {
			return (this.count < FAILURES) ? 0 : Math.max(0, this.times[this.oldest] + WINDOW.toNanos() - now);
		}

	}

	/** Answered 429 with {@code Retry-After}, without a check of the credentials. */
	static final class TooManyFailures extends AuthenticationException {

		private static final long serialVersionUID = 1L;

		private final long retryAfterSeconds;

		TooManyFailures(long waitNanos) {
			super(FAILURES + " failed logins from this address within " + WINDOW);
			this.retryAfterSeconds = Math.max(1, (waitNanos + 999_999_999) / 1_000_000_000);
		}

		long retryAfterSeconds() {
			return this.retryAfterSeconds;
		}

	}

}
