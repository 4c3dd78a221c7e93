package dev.pipelininglab;

import java.net.URI;
import java.util.Locale;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * Every problem the lab answers or records, with its stable {@code type} URI, title and
 * status, so clients can branch on the type rather than on the wording of a detail. The
 * HTTP answers, the records of failed jobs and the API description all take them from
 * here.
 */
public enum ProblemType {

	INVALID_PARAMETER(HttpStatus.BAD_REQUEST, "Invalid parameter"),

	/**
	 * The request itself cannot be read: bad percent-encoding in the path or query, a
	 * request line or header over the server's limits.
	 */
	MALFORMED_REQUEST(HttpStatus.BAD_REQUEST, "Malformed request"),

	/**
	 * The {@code Host} header names a host this server is not configured to be
	 * ({@code lab.security.allowed-hosts}): how DNS rebinding would reach it.
	 */
	HOST_NOT_ALLOWED(HttpStatus.FORBIDDEN, "Host not allowed"),

	/**
	 * A run or a delete sent by a page of another site (foreign {@code Origin} or
	 * {@code Sec-Fetch-Site: cross-site}).
	 */
	CROSS_SITE_REQUEST(HttpStatus.FORBIDDEN, "Cross-site request refused"),

	REDIS_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Redis unavailable"),

	REDIS_TIMEOUT(HttpStatus.SERVICE_UNAVAILABLE, "Redis did not answer in time"),

	/**
	 * Sentinel: the sentinels answer, but the master they name (given in {@code master})
	 * does not take writes; a failover or the app's switch to the new master is under
	 * way.
	 */
	REDIS_MASTER_UNREACHABLE(HttpStatus.SERVICE_UNAVAILABLE, "Redis master unreachable"),

	/** Sentinel: none of the configured sentinels answers. */
	REDIS_SENTINELS_UNREACHABLE(HttpStatus.SERVICE_UNAVAILABLE, "Redis sentinels unreachable"),

	/**
	 * Cluster: a node answered CLUSTERDOWN, or says {@code cluster_state:fail}, or slots
	 * have no live master ({@code slotsWithoutLiveMaster}).
	 */
	REDIS_CLUSTER_DOWN(HttpStatus.SERVICE_UNAVAILABLE, "Redis cluster down"),

	/**
	 * Cluster: a master the app routes slots to does not answer ({@code unreachable}).
	 */
	REDIS_NODE_UNREACHABLE(HttpStatus.SERVICE_UNAVAILABLE, "Redis cluster node unreachable"),

	/**
	 * Redis is up but refuses the configured username or password: a configuration error,
	 * not an outage.
	 */
	REDIS_AUTH_FAILED(HttpStatus.SERVICE_UNAVAILABLE, "Redis refused the credentials"),

	REDIS_ERROR_REPLY(HttpStatus.CONFLICT, "Redis refused a command"),

	/**
	 * More requests at once than the app lets reach Redis, or every job slot taken
	 * ({@code POST /runs}); answered with Retry-After.
	 */
	TOO_BUSY(HttpStatus.TOO_MANY_REQUESTS, "Too many runs at once"),

	RUN_NOT_FOUND(HttpStatus.NOT_FOUND, "Run not found"),

	RUN_FINISHED(HttpStatus.CONFLICT, "Run already finished"),

	/**
	 * Only ever in a job's record: the instance running it stopped without a graceful
	 * shutdown.
	 */
	RUN_ABANDONED(HttpStatus.INTERNAL_SERVER_ERROR, "Run abandoned"),

	/** Only ever in a job's record: the instance shut down and stopped the run. */
	INSTANCE_SHUTDOWN(HttpStatus.SERVICE_UNAVAILABLE, "Instance shut down"),

	UNEXPECTED(HttpStatus.INTERNAL_SERVER_ERROR, "Unexpected error");

	private static final String PREFIX = "urn:pipelining-lab:problem:";

	private final HttpStatus status;

	private final String title;

	ProblemType(HttpStatus status, String title) {
		this.status = status;
		this.title = title;
	}

	public HttpStatus status() {
		return this.status;
	}

	public String title() {
		return this.title;
	}

	public URI uri() {
		return URI.create(PREFIX + name().toLowerCase(Locale.ROOT).replace('_', '-'));
	}

	/** The problem with this type, title and status, and the given detail. */
	public ProblemDetail problem(String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(this.status, detail);
		problem.setType(uri());
		problem.setTitle(this.title);
		return problem;
	}

	/**
	 * The problem that answers a parameter outside what the lab accepts: the detail
	 * starts with the parameter's name, and {@code parameter} names it.
	 */
	public static ProblemDetail invalidParameter(String parameter, String detail) {
		ProblemDetail problem = INVALID_PARAMETER.problem(detail);
		problem.setProperty("parameter", parameter);
		return problem;
	}

}
