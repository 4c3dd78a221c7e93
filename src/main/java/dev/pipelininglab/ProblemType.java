package dev.pipelininglab;

import java.net.URI;
import java.util.Locale;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * Every problem the lab answers or records, with its stable {@code type} URI, title,
 * status and how its detail starts, so clients can branch on the type rather than on the
 * wording of a detail. The HTTP answers, the records of failed jobs and the API
 * description all take them from here.
 */
public enum ProblemType {

	/**
	 * A parameter (or body field) outside what the lab accepts; the detail starts with
	 * its name, and {@code parameter} names it.
	 */
	INVALID_PARAMETER(HttpStatus.BAD_REQUEST, "Invalid parameter", "%s"),

	/**
	 * The request itself cannot be read: bad percent-encoding in the path or query, a
	 * request line or header over the server's limits.
	 */
	MALFORMED_REQUEST(HttpStatus.BAD_REQUEST, "Malformed request", "%s"),

	/**
	 * The {@code Host} header names a host this server is not configured to be
	 * ({@code lab.security.allowed-hosts}): how DNS rebinding would reach it.
	 */
	HOST_NOT_ALLOWED(HttpStatus.FORBIDDEN, "Host not allowed",
			"This server does not answer to the host named in the request. Add it to"
					+ " lab.security.allowed-hosts if the app is meant to be reached under that name."),

	/**
	 * A run or a delete sent by a page of another site (foreign {@code Origin} or
	 * {@code Sec-Fetch-Site: cross-site}).
	 */
	CROSS_SITE_REQUEST(HttpStatus.FORBIDDEN, "Cross-site request refused",
			"Runs and deletes are not taken from pages of another site; send them from this app's page,"
					+ " Swagger UI, curl or an API client."),

	/** Blank: the topology's description ({@code Redis at host:port}). */
	REDIS_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Redis unavailable",
			"Cannot reach %s. Start Redis or point spring.data.redis.* at one; the app reconnects by itself."),

	/** Blank: the topology's description. */
	REDIS_TIMEOUT(HttpStatus.SERVICE_UNAVAILABLE, "Redis did not answer in time",
			"%s did not answer within the command timeout (spring.data.redis.timeout)."),

	/**
	 * Sentinel: the sentinels answer, but the master they name (given in {@code master})
	 * does not take writes; a failover or the app's switch to the new master is under
	 * way.
	 */
	REDIS_MASTER_UNREACHABLE(HttpStatus.SERVICE_UNAVAILABLE, "Redis master unreachable", Details.RECONNECTS),

	/** Sentinel: none of the configured sentinels answers. */
	REDIS_SENTINELS_UNREACHABLE(HttpStatus.SERVICE_UNAVAILABLE, "Redis sentinels unreachable", Details.RECONNECTS),

	/**
	 * Cluster: a node answered CLUSTERDOWN, or says {@code cluster_state:fail}, or slots
	 * have no live master ({@code slotsWithoutLiveMaster}).
	 */
	REDIS_CLUSTER_DOWN(HttpStatus.SERVICE_UNAVAILABLE, "Redis cluster down", "A Redis cluster node answered '%s'. %s"),

	/**
	 * Cluster: a master the app routes slots to does not answer ({@code unreachable}).
	 */
	REDIS_NODE_UNREACHABLE(HttpStatus.SERVICE_UNAVAILABLE, "Redis cluster node unreachable", Details.RECONNECTS),

	/**
	 * Redis is up but refuses the configured username or password: a configuration error,
	 * not an outage.
	 */
	REDIS_AUTH_FAILED(HttpStatus.SERVICE_UNAVAILABLE, "Redis refused the credentials",
			"%s refused the app's credentials (%s). Check spring.data.redis.username and spring.data.redis.password."),

	/** Blanks: the command ({@code a command on key}), Redis's error reply. */
	REDIS_ERROR_REPLY(HttpStatus.CONFLICT, "Redis refused a command", "Redis answered %s with an error: %s"),

	/**
	 * More requests at once than the app lets reach Redis, or every job slot taken
	 * ({@code POST /runs}); answered with Retry-After.
	 */
	TOO_BUSY(HttpStatus.TOO_MANY_REQUESTS, "Too many runs at once", "%s"),

	RUN_NOT_FOUND(HttpStatus.NOT_FOUND, "Run not found",
			"No run with id '%s': it never existed, its record expired, or DELETE /keys removed it"),

	/** Blanks: the run's id, its status. */
	RUN_FINISHED(HttpStatus.CONFLICT, "Run already finished",
			"Run %s has already finished with status %s; there is nothing to cancel"),

	/**
	 * Only ever in a job's record: the instance running it stopped without a graceful
	 * shutdown.
	 */
	RUN_ABANDONED(HttpStatus.INTERNAL_SERVER_ERROR, "Run abandoned",
			"Instance %s stopped updating this run at %s"
					+ " without finishing it; it probably stopped without a graceful shutdown."),

	/**
	 * A GET run stopped between commands once it had held its admission slot for
	 * {@code lab.limits.max-run-time}. Blanks: the limit, what was done.
	 */
	RUN_TIME_EXCEEDED(HttpStatus.SERVICE_UNAVAILABLE, "Run took too long",
			"The run was stopped after lab.limits.max-run-time (%s), between commands, so that no request holds one"
					+ " of this app's run slots longer; %s Ask for fewer commands, a smaller rtt or start it as a job"
					+ " (POST /runs), which has no such limit and can be cancelled."),

	/** Only ever in a job's record: the instance shut down and stopped the run. */
	INSTANCE_SHUTDOWN(HttpStatus.SERVICE_UNAVAILABLE, "Instance shut down",
			"Instance %s shut down while the run was going; it stopped between batches."),

	/** Blanks: what failed ({@code request}, {@code run}), what it could not be. */
	UNEXPECTED(HttpStatus.INTERNAL_SERVER_ERROR, "Unexpected error",
			"The %s could not be %s; the server log has details.");

	private static final String PREFIX = "urn:pipelining-lab:problem:";

	private final HttpStatus status;

	private final String title;

	private final String detail;

	ProblemType(HttpStatus status, String title, String detail) {
		this.status = status;
		this.title = title;
		this.detail = detail;
	}

	public HttpStatus status() {
		return this.status;
	}

	public String title() {
		return this.title;
	}

	/**
	 * How every detail of this type starts, its blanks ({@code %s}) filled with
	 * {@code values} in order; {@code %s} alone where the detail is the cause's own words
	 * (a parameter check, an exception's message).
	 */
	public String detail(Object... values) {
		return this.detail.formatted(values);
	}

	/** The problem with this type, title and status, and the detail it starts with. */
	public ProblemDetail problemOf(Object... values) {
		return problem(detail(values));
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
		ProblemDetail problem = INVALID_PARAMETER.problem(quotedShort(detail));
		problem.setProperty("parameter", parameter);
		return problem;
	}

	/**
	 * A value the client sent is quoted by its first {@value #QUOTED} characters, with
	 * control characters shown as escapes: a 16 KB bad value does not come back as a 16
	 * KB detail, and an invisible character is seen.
	 */
	static String quotedShort(String detail) {
		StringBuilder out = new StringBuilder();
		java.util.regex.Matcher quoted = QUOTE.matcher(detail);
		while (quoted.find()) {
			String value = quoted.group(1);
			String shown = (value.length() > QUOTED) ? value.substring(0, QUOTED) + "\u2026" : value;
			StringBuilder escaped = new StringBuilder();
			shown.codePoints()
				.forEach((c) -> escaped.append(
						Character.isISOControl(c) ? String.format("\\u%04x", c) : new String(Character.toChars(c))));
			quoted.appendReplacement(out, java.util.regex.Matcher.quoteReplacement("'" + escaped + "'"));
		}
		quoted.appendTail(out);
		return out.toString();
	}

	private static final int QUOTED = 40;

	private static final java.util.regex.Pattern QUOTE = java.util.regex.Pattern.compile("'([^']*)'");

	/**
	 * Openings shared by several types (an enum's own constants come too late for them).
	 */
	private static final class Details {

		/** Blank: what the diagnosis found missing, with its address. */
		static final String RECONNECTS = "%s The app reconnects by itself.";

	}

}
