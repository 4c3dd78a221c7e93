package dev.pipelininglab;

import java.net.URI;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Every problem the lab answers or records, with its stable {@code type} URI and HTTP
 * status; free of Spring Web ({@code web.problem.Problems} builds the
 * {@code ProblemDetail}).
 */
public enum ProblemType {

	INVALID_PARAMETER(400, "Invalid parameter", "%s"), MALFORMED_REQUEST(400, "Malformed request", "%s"),
	HOST_NOT_ALLOWED(403, "Host not allowed",
			"This server does not answer to the host named in the request. Add it to"
					+ " lab.security.allowed-hosts if the app is meant to be reached under that name."),
	CROSS_SITE_REQUEST(403, "Cross-site request refused",
			"Runs and deletes are not taken from pages of another site; send them from this app's page,"
					+ " Swagger UI, curl or an API client."),
	CREDENTIALS_REQUIRED(401, "Credentials required",
			"This app listens beyond loopback, where every endpoint but the health probes needs the HTTP Basic"
					+ " credentials it was started with (spring.security.user.name and spring.security.user.password)."),
	TOO_MANY_FAILED_LOGINS(429, "Too many failed logins",
			"This address sent %s wrong credentials within a minute: further wrong ones are answered 429, without"
					+ " being checked, until Retry-After. The right credentials are still accepted."),
	REDIS_UNAVAILABLE(503, "Redis unavailable",
			"Cannot reach %s. Start Redis or point spring.data.redis.* at one; the app reconnects by itself."),
	REDIS_TIMEOUT(503, "Redis did not answer in time",
			"%s did not answer within the command timeout (spring.data.redis.timeout)."),
	REDIS_MASTER_UNREACHABLE(503, "Redis master unreachable", Details.RECONNECTS),
	REDIS_SENTINELS_UNREACHABLE(503, "Redis sentinels unreachable", Details.RECONNECTS),
	REDIS_CLUSTER_DOWN(503, "Redis cluster down", "A Redis cluster node answered '%s'. %s"),
	REDIS_NODE_UNREACHABLE(503, "Redis cluster node unreachable", Details.RECONNECTS),
	REDIS_AUTH_FAILED(503, "Redis refused the credentials",
			"%s refused the app's credentials (%s). Check spring.data.redis.username and spring.data.redis.password."),
	REDIS_ERROR_REPLY(409, "Redis refused a command", "Redis answered %s with an error: %s"),
	CROSS_SLOT_TRANSACTION(409, "Transaction across hash slots",
			"%s refused the transaction: %s. A cluster runs MULTI ... EXEC only when every key is in one hash slot"
					+ " (Redis answers CROSSSLOT for a key in another slot of the same master, MOVED for one on"
					+ " another master, and EXEC then discards it all). Give the keys one hash tag, e.g."
					+ " {lab}:key:<i>, as variant transaction-hashtag does: the batch is then atomic, on one master."),
	TOO_BUSY(429, "Too many runs at once", "%s"),
	RUN_NOT_FOUND(404, "Run not found",
			"No run with id '%s': it never existed, its record expired, or DELETE /keys removed it"),
	RECIPE_NOT_FOUND(404, "No recipe for this variant",
			"It runs on no topology, so there is no tested code for it: %s"),
	RUN_CANCELLED(409, "Run cancelled",
			"Run %s was cancelled with DELETE /runs/{id} and stopped between commands; what it wrote keeps its expiry."),
	RUN_FINISHED(409, "Run already finished", "Run %s has already finished with status %s; there is nothing to cancel"),
	RUN_ABANDONED(500, "Run abandoned",
			"Instance %s stopped updating this run at %s"
					+ " without finishing it; it probably stopped without a graceful shutdown."),
	RUN_TIME_EXCEEDED(503, "Run took too long",
			"The run was stopped after lab.limits.max-run-time (%s), between commands, so that no request holds one"
					+ " of this app's run slots longer; %s Ask for fewer commands or a smaller rtt, give it a"
					+ " duration, or raise lab.limits.max-run-time on an app of your own."),
	RUN_DOES_NOT_FIT(409, "Run does not fit in Redis' memory",
			"The run needs about %s on %s, but only %s is free for it there (%s, used_memory %s, less a %s%% safety"
					+ " margin), so it was refused before writing anything. %s"),
	EVICTION_RISK(409, "Run could make Redis evict other keys",
			"The run needs about %s on %s, more than the %s free below maxmemory (%s, used_memory %s, less a %s%%"
					+ " safety margin), and maxmemory-policy %s %s: Redis would delete keys that are not the lab's to"
					+ " make room, so the run was refused before writing anything. %s"),
	INSTANCE_SHUTDOWN(503, "Instance shut down",
			"Instance %s shut down while the run was going; it stopped between batches."),
	UNEXPECTED(500, "Unexpected error", "The %s could not be %s; the server log has details.");

	private static final String PREFIX = "urn:pipelining-lab:problem:";

	private final int status;

	private final String title;

	private final String detail;

	ProblemType(int status, String title, String detail) {
		this.status = status;
		this.title = title;
		this.detail = detail;
	}

	public String title() {
		return this.title;
	}

	public String detail(@Nullable Object... values) {
		return this.detail.formatted(values);
	}

	public int status() {
		return this.status;
	}

	public URI uri() {
		return URI.create(PREFIX + name().toLowerCase(Locale.ROOT).replace('_', '-'));
	}

	// An enum's constants cannot use its own static fields.
	private static final class Details {

		static final String RECONNECTS = "%s The app reconnects by itself.";

	}

}
