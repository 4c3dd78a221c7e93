package dev.pipelininglab;

import java.net.URI;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Every problem the lab answers or records, with its stable {@code type} URI, title and
 * how its detail starts, so clients can branch on the type rather than on the wording of
 * a detail. The HTTP answers, the records of failed jobs and the API description all take
 * them from here; the HTTP side (each type's status, the {@code ProblemDetail}) is
 * {@code web.problem.Problems}, so code outside the web layer names a problem without
 * Spring Web.
 */
public enum ProblemType {

	/**
	 * A parameter (or body field) outside what the lab accepts; the detail starts with
	 * its name, and {@code parameter} names it.
	 */
	INVALID_PARAMETER("Invalid parameter", "%s"),

	/**
	 * The request itself cannot be read: bad percent-encoding in the path or query, a
	 * request line or header over the server's limits.
	 */
	MALFORMED_REQUEST("Malformed request", "%s"),

	/**
	 * The {@code Host} header names a host this server is not configured to be
	 * ({@code lab.security.allowed-hosts}): how DNS rebinding would reach it.
	 */
	HOST_NOT_ALLOWED("Host not allowed",
			"This server does not answer to the host named in the request. Add it to"
					+ " lab.security.allowed-hosts if the app is meant to be reached under that name."),

	/**
	 * A run or a delete sent by a page of another site (foreign {@code Origin} or
	 * {@code Sec-Fetch-Site: cross-site}).
	 */
	CROSS_SITE_REQUEST("Cross-site request refused",
			"Runs and deletes are not taken from pages of another site; send them from this app's page,"
					+ " Swagger UI, curl or an API client."),

	/**
	 * The app listens beyond loopback, and the request carries no HTTP Basic credentials,
	 * or not the ones it was started with ({@code spring.security.user.*}); answered with
	 * {@code WWW-Authenticate: Basic}.
	 */
	CREDENTIALS_REQUIRED("Credentials required",
			"This app listens beyond loopback, where every endpoint but the health probes needs the HTTP Basic"
					+ " credentials it was started with (spring.security.user.name and spring.security.user.password)."),

	/** Blank: the topology's description ({@code Redis at host:port}). */
	REDIS_UNAVAILABLE("Redis unavailable",
			"Cannot reach %s. Start Redis or point spring.data.redis.* at one; the app reconnects by itself."),

	/** Blank: the topology's description. */
	REDIS_TIMEOUT("Redis did not answer in time",
			"%s did not answer within the command timeout (spring.data.redis.timeout)."),

	/**
	 * Sentinel: the sentinels answer, but the master they name (given in {@code master})
	 * does not take writes; a failover or the app's switch to the new master is under
	 * way.
	 */
	REDIS_MASTER_UNREACHABLE("Redis master unreachable", Details.RECONNECTS),

	/** Sentinel: none of the configured sentinels answers. */
	REDIS_SENTINELS_UNREACHABLE("Redis sentinels unreachable", Details.RECONNECTS),

	/**
	 * Cluster: a node answered CLUSTERDOWN, or says {@code cluster_state:fail}, or slots
	 * have no live master ({@code slotsWithoutLiveMaster}).
	 */
	REDIS_CLUSTER_DOWN("Redis cluster down", "A Redis cluster node answered '%s'. %s"),

	/**
	 * Cluster: a master the app routes slots to does not answer ({@code unreachable}).
	 */
	REDIS_NODE_UNREACHABLE("Redis cluster node unreachable", Details.RECONNECTS),

	/**
	 * Redis is up but refuses the configured username or password: a configuration error,
	 * not an outage.
	 */
	REDIS_AUTH_FAILED("Redis refused the credentials",
			"%s refused the app's credentials (%s). Check spring.data.redis.username and spring.data.redis.password."),

	/** Blanks: the command ({@code a command on key}), Redis's error reply. */
	REDIS_ERROR_REPLY("Redis refused a command", "Redis answered %s with an error: %s"),

	/**
	 * Cluster: a transaction's keys span hash slots, and the master refused it. Blanks:
	 * the master, Redis's error reply.
	 */
	CROSS_SLOT_TRANSACTION("Transaction across hash slots",
			"%s refused the transaction: %s. A cluster runs MULTI ... EXEC only when every key is in one hash slot"
					+ " (Redis answers CROSSSLOT for a key in another slot of the same master, MOVED for one on"
					+ " another master, and EXEC then discards it all). Give the keys one hash tag, e.g."
					+ " {lab}:key:<i>, as variant transaction-hashtag does: the batch is then atomic, on one master."),

	/**
	 * More requests at once than the app lets reach Redis, or every job slot taken
	 * ({@code POST /runs}); answered with Retry-After.
	 */
	TOO_BUSY("Too many runs at once", "%s"),

	RUN_NOT_FOUND("Run not found",
			"No run with id '%s': it never existed, its record expired, or DELETE /keys removed it"),

	/**
	 * {@code GET /recipes/{variant}} for a variant the lab knows but that runs on no
	 * topology (jedis-async...): there is no tested code to give. Blank: why it cannot
	 * run.
	 */
	RECIPE_NOT_FOUND("No recipe for this variant", "It runs on no topology, so there is no tested code for it: %s"),

	/**
	 * A GET run stopped between commands by {@code DELETE /runs/{id}}. Blank: its id.
	 */
	RUN_CANCELLED("Run cancelled",
			"Run %s was cancelled with DELETE /runs/{id} and stopped between commands; what it wrote keeps its expiry."),

	/** Blanks: the run's id, its status. */
	RUN_FINISHED("Run already finished", "Run %s has already finished with status %s; there is nothing to cancel"),

	/**
	 * Only ever in a job's record: the instance running it stopped without a graceful
	 * shutdown.
	 */
	RUN_ABANDONED("Run abandoned",
			"Instance %s stopped updating this run at %s"
					+ " without finishing it; it probably stopped without a graceful shutdown."),

	/**
	 * A run, GET or job, stopped between commands once it had held its slot for
	 * {@code lab.limits.max-run-time}. Blanks: the limit, what was done.
	 */
	RUN_TIME_EXCEEDED("Run took too long",
			"The run was stopped after lab.limits.max-run-time (%s), between commands, so that no request holds one"
					+ " of this app's run slots longer; %s Ask for fewer commands or a smaller rtt, give it a"
					+ " duration, or raise lab.limits.max-run-time on an app of your own."),

	/**
	 * The preflight found that the run would not fit in a server's free memory, and
	 * nothing would make room; nothing was written. Blanks: estimate, server, what is
	 * free for it, the limit, used_memory, the margin in percent, how to make it fit.
	 */
	RUN_DOES_NOT_FIT("Run does not fit in Redis' memory",
			"The run needs about %s on %s, but only %s is free for it there (%s, used_memory %s, less a %s%% safety"
					+ " margin), so it was refused before writing anything. %s"),

	/**
	 * The run could push a server past {@code maxmemory} under a policy that evicts keys
	 * other than the lab's; nothing was written. Blanks: estimate, server, what is free
	 * below maxmemory, maxmemory, used_memory, the margin in percent, the policy, why it
	 * reaches other keys, how to make it fit.
	 */
	EVICTION_RISK("Run could make Redis evict other keys",
			"The run needs about %s on %s, more than the %s free below maxmemory (%s, used_memory %s, less a %s%%"
					+ " safety margin), and maxmemory-policy %s %s: Redis would delete keys that are not the lab's to"
					+ " make room, so the run was refused before writing anything. %s"),

	/** Only ever in a job's record: the instance shut down and stopped the run. */
	INSTANCE_SHUTDOWN("Instance shut down",
			"Instance %s shut down while the run was going; it stopped between batches."),

	/** Blanks: what failed ({@code request}, {@code run}), what it could not be. */
	UNEXPECTED("Unexpected error", "The %s could not be %s; the server log has details.");

	private static final String PREFIX = "urn:pipelining-lab:problem:";

	private final String title;

	private final String detail;

	ProblemType(String title, String detail) {
		this.title = title;
		this.detail = detail;
	}

	public String title() {
		return this.title;
	}

	/**
	 * How every detail of this type starts, its blanks ({@code %s}) filled with
	 * {@code values} in order; {@code %s} alone where the detail is the cause's own words
	 * (a parameter check, an exception's message).
	 */
	public String detail(@Nullable Object... values) {
		return this.detail.formatted(values);
	}

	public URI uri() {
		return URI.create(PREFIX + name().toLowerCase(Locale.ROOT).replace('_', '-'));
	}

	/**
	 * Openings shared by several types (an enum's own constants come too late for them).
	 */
	private static final class Details {

		/** Blank: what the diagnosis found missing, with its address. */
		static final String RECONNECTS = "%s The app reconnects by itself.";

	}

}
