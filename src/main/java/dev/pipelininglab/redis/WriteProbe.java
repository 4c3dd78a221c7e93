package dev.pipelininglab.redis;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a diagnosis's probe of Redis saw: a reply, or the innermost cause of its failure.
 *
 * @param failure the innermost cause's message, or null when the write went through
 * @param authRefusal Redis' own words when it refused the credentials
 */
record WriteProbe(@Nullable String failure, @Nullable String authRefusal) {

	static final WriteProbe OK = new WriteProbe(null, null);

	static WriteProbe failed(Throwable failure) {
		Throwable innermost = failure;
		while (innermost.getCause() != null && innermost.getCause() != innermost) {
			innermost = innermost.getCause();
		}
		String message = (innermost.getMessage() != null) ? innermost.getMessage()
				: innermost.getClass().getSimpleName();
		return new WriteProbe(message, RedisReplies.authRefusal(failure));
	}

	boolean wrote() {
		return this.failure == null;
	}

	/**
	 * The finding for a Redis at {@code address} that refused the credentials, as this
	 * probe saw it.
	 */
	RedisDiagnosis.Finding authFailed(String address, Map<String, Object> details) {
		return new RedisDiagnosis.Finding(RedisDiagnosis.Cause.AUTH_FAILED,
				"Redis at " + address + " refuses the app's credentials (" + this.authRefusal
						+ "); check spring.data.redis.username and password.",
				details);
	}

}
