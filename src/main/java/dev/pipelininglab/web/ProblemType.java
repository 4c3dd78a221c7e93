package dev.pipelininglab.web;

import java.net.URI;

import org.springframework.http.HttpStatus;

/**
 * Stable problem {@code type} URIs, so clients can branch on them rather than on the
 * wording of a detail.
 */
enum ProblemType {

	INVALID_PARAMETER(HttpStatus.BAD_REQUEST, "Invalid parameter"),

	REDIS_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Redis unavailable"),

	REDIS_TIMEOUT(HttpStatus.SERVICE_UNAVAILABLE, "Redis did not answer in time"),

	/**
	 * Redis is up but refuses the configured username or password: a configuration error,
	 * not an outage.
	 */
	REDIS_AUTH_FAILED(HttpStatus.SERVICE_UNAVAILABLE, "Redis refused the credentials"),

	REDIS_ERROR_REPLY(HttpStatus.CONFLICT, "Redis refused a command"),

	TOO_MANY_ROUTES(HttpStatus.CONFLICT, "Too many connection routes"),

	/**
	 * More requests at once than the app lets reach Redis, or every job slot taken
	 * ({@code POST /runs}); answered with Retry-After.
	 */
	TOO_BUSY(HttpStatus.TOO_MANY_REQUESTS, "Too many runs at once"),

	RUN_NOT_FOUND(HttpStatus.NOT_FOUND, "Run not found"),

	RUN_FINISHED(HttpStatus.CONFLICT, "Run already finished"),

	UNEXPECTED(HttpStatus.INTERNAL_SERVER_ERROR, "Unexpected error");

	private final HttpStatus status;

	private final String title;

	ProblemType(HttpStatus status, String title) {
		this.status = status;
		this.title = title;
	}

	HttpStatus status() {
		return this.status;
	}

	String title() {
		return this.title;
	}

	URI uri() {
		return URI.create("urn:pipelining-lab:problem:" + name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
	}

}
