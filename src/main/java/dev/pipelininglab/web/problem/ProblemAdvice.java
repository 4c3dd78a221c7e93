package dev.pipelininglab.web.problem;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.job.RunStoppedException;
import dev.pipelininglab.redis.RedisDiagnosis;
import dev.pipelininglab.redis.RedisReplies;
import dev.pipelininglab.redis.Topology;
import dev.pipelininglab.run.RunFailedException;
import dev.pipelininglab.web.ApiParameter;
import dev.pipelininglab.web.LabSettings;
import dev.pipelininglab.web.ParameterCheck;
import dev.pipelininglab.web.RunParams;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

import org.springframework.beans.TypeMismatchException;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * The lab's own failures, and binding errors that must name a parameter, as problems with
 * the catalogue's {@code type}; not a {@code ResponseEntityExceptionHandler}, so Boot's
 * ({@code spring.mvc.problemdetails.enabled}) answers the rest of Spring MVC's.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class ProblemAdvice {

	private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

	/** nginx's "client closed request", not in HttpStatus. */
	private static final int CLIENT_CLOSED_REQUEST = 499;

	/** How Jackson's strict duplicate detection names the repeated field. */
	private static final Pattern DUPLICATE = Pattern.compile("Duplicate (?:Object property|field) \"([^\"]+)\"");

	private final Topology topology;

	private final LabSettings properties;

	private final RedisDiagnosis diagnosis;

	ProblemAdvice(Topology topology, LabSettings properties, RedisDiagnosis diagnosis) {
		this.topology = topology;
		this.properties = properties;
		this.diagnosis = diagnosis;
	}

	/**
	 * Every failure of the lab's own that names its problem type: one answer for all,
	 * with the type's status, the exception's fields, and {@code Retry-After} where
	 * waiting helps.
	 */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> problem(ProblemException ex) {
		ProblemType type = ex.type();
		ProblemDetail problem = Problems.problem(type, ex.getMessage());
		ex.properties().forEach(problem::setProperty);
		if (type.status() == HttpStatus.CONFLICT.value()) {
			// Refused although it could have run (the preflight, Redis, a finished run):
			// worth a line.
			log.info("Refused ({}): {}", type, ex.getMessage());
		}
		Duration retryAfter = ex.retryAfter();
		if (retryAfter == null) {
			return answer(type, problem);
		}
		long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
		return ResponseEntity.status(type.status())
			.header(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
			.body(Problems.with(problem, "retryAfterSeconds", seconds));
	}

	@ExceptionHandler
	ProblemDetail typeMismatch(TypeMismatchException ex) {
		return mismatch((ex instanceof MethodArgumentTypeMismatchException mismatch) ? mismatch.getName()
				: ex.getPropertyName(), ex.getValue());
	}

	/** A query parameter of the wrong type fails binding to {@link RunParams}. */
	@ExceptionHandler
	ProblemDetail argumentNotValid(MethodArgumentNotValidException ex) {
		FieldError error = ex.getBindingResult().getFieldError();
		return mismatch((error != null) ? error.getField() : ex.getParameter().getParameterName(),
				(error != null) ? error.getRejectedValue() : null);
	}

	private ProblemDetail mismatch(@Nullable String name, @Nullable Object value) {
		return Problems.invalidParameter(name, name + " must be " + expected(name, false) + ", got '" + value + "'");
	}

	/** A run that failed on Redis says how far it got; a plain Redis call only why. */
	@ExceptionHandler({ RunFailedException.class, DataAccessException.class })
	ResponseEntity<ProblemDetail> redisFailed(RuntimeException ex) {
		RunFailedException run = (ex instanceof RunFailedException failed) ? failed : null;
		Throwable cause = (run != null) ? RedisFailure.causeOf(run) : ex;
		Diagnosed diagnosed = diagnose(RedisFailure.classify(cause));
		ProblemType type = diagnosed.type();
		ProblemDetail problem = redisProblem(diagnosed, cause, (run != null) ? run.key() : null);
		if (run != null) {
			Problems.with(problem, "operation", run.spec().operation(), "mode", run.spec().mode(), "batchesCompleted",
					run.batchesCompleted(), "batchesTotal", run.batchesTotal(), "acknowledged", run.acknowledged(),
					"rejected", run.rejected(), "unconfirmed", run.unconfirmed(), "written", run.written(), "verified",
					run.verified());
		}
		if (run != null && type == ProblemType.REDIS_ERROR_REPLY) {
			// Pipelines are not atomic: say what is known to have run and what may have.
			String reply = Objects.requireNonNullElse(problem.getDetail(), "");
			problem.setDetail(reply + (reply.endsWith(".") ? "" : ".") + " " + run.acknowledged()
					+ " commands succeeded before the failure and stay done"
					+ ((run.unconfirmed() > 0) ? "; " + run.unconfirmed() + " others of the"
							+ " failing batch may have run too (commands in a pipeline run independently)" : "")
					+ ((run.verified() != null) ? "; " + run.verified() + " of the run's keys hold their value now"
							+ " (read back after the failure)" : "")
					+ ".");
		}
		// The innermost cause says what happened; the run's message names the wrapper.
		log.warn("{} failed ({}): {} [{}]", (run != null) ? "Run" : "Redis request", type, ex.getMessage(),
				NestedExceptionUtils.getMostSpecificCause(ex).getMessage());
		return answer(type, problem);
	}

	/** A busy app asks the client to come back shortly rather than give up. */
	private static ResponseEntity<ProblemDetail> answer(ProblemType type, ProblemDetail problem) {
		ResponseEntity.BodyBuilder answer = ResponseEntity.status(type.status());
		return ((type == ProblemType.TOO_BUSY) ? answer.header(HttpHeaders.RETRY_AFTER, "1") : answer).body(problem);
	}

	/** A GET run stopped between commands; a caller that hung up gets a bodiless 499. */
	@ExceptionHandler
	ResponseEntity<?> runStopped(RunStoppedException ex, HttpServletRequest request) {
		RunRecord.Problem problem = ex.record().problem();
		return switch (ex.reason()) {
			case CALLER_GONE -> {
				log.info("Stopped GET {} between commands after {} s: its caller hung up; its run slot is free",
						request.getRequestURI(), String.format(Locale.ROOT, "%.1f", ex.elapsed().toMillis() / 1000.0));
				yield ResponseEntity.status(CLIENT_CLOSED_REQUEST).build();
			}
			case CANCELLED -> ResponseEntity.of(Problems.of(ProblemType.RUN_CANCELLED, ex.record().id())).build();
			case SHUTDOWN, MAX_RUN_TIME -> {
				log.info("Stopped a run between commands: {}", (problem != null) ? problem.detail() : ex.reason());
				ProblemType type = (ex.reason() == RunStoppedException.Reason.SHUTDOWN) ? ProblemType.INSTANCE_SHUTDOWN
						: ProblemType.RUN_TIME_EXCEEDED;
				yield ResponseEntity.of(Problems.problem(type, (problem != null) ? problem.detail() : null)).build();
			}
		};
	}

	/** A {@code POST /runs} body: names the field at fault, or {@code body}. */
	@ExceptionHandler
	ProblemDetail messageNotReadable(HttpMessageNotReadableException ex) {
		String name = "body";
		String detail = "body must be a JSON object with the run's fields";
		for (Throwable cause = ex.getCause(); cause != null; cause = cause.getCause()) {
			if (cause instanceof UnrecognizedPropertyException unknown) {
				name = unknown.getPropertyName();
				detail = name + " " + ParameterCheck.unknown("the body has no such field",
						unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList(), name);
				break;
			}
			Matcher duplicate = (cause instanceof StreamReadException) ? DUPLICATE.matcher(cause.getMessage()) : null;
			if (duplicate != null && duplicate.find()) {
				name = duplicate.group(1);
				detail = name + " must be given once, got it twice";
				break;
			}
			if (cause instanceof JacksonException jackson) {
				String field = jackson.getPath()
					.stream()
					.map(JacksonException.Reference::getPropertyName)
					.filter(Objects::nonNull)
					.findFirst()
					.orElse(null);
				if (field != null) {
					name = field;
					detail = field + " must be " + expected(field, true)
							+ ((cause instanceof InvalidFormatException invalid) ? ", got '" + invalid.getValue() + "'"
									: "");
				}
				else if (cause instanceof StreamReadException) {
					detail += ": " + inApiWords(jackson.getOriginalMessage());
				}
				break;
			}
		}
		if (ex.getCause() == null) {
			detail += ", and there was none";
		}
		return Problems.invalidParameter(name, detail);
	}

	/** The parser's words on broken JSON, less its switches, which no client sets. */
	static String inApiWords(String message) {
		return message.replaceAll(":?\\s*enable `[^`]*` to allow", "")
			.replaceAll("\\s*\\([^()]*Feature[^()]*\\)", "")
			.replaceAll("[^.;:(]*Feature[^.;:)]*", "")
			.strip();
	}

	/** From the catalogue: {@code /pipeset/abc} is told the real bounds, not a long's. */
	private String expected(@Nullable String name, boolean json) {
		return ApiParameter.named(name).map((parameter) -> {
			ApiParameter.Bounds bounds = parameter.bounds(this.properties);
			return switch (parameter.type()) {
				case INTEGER -> "a whole number between " + bounds.minimum() + " and " + bounds.maximum();
				case NUMBER ->
					"a number of milliseconds between " + plain(bounds.minimum()) + " and " + plain(bounds.maximum());
				case STRING -> json ? "a string" : "text";
				case LIST -> !json ? "a comma-separated list"
						: (parameter == ApiParameter.BATCH_SIZES) ? "an array of whole numbers" : "an array of strings";
			};
		}).orElse(json ? "a string" : "a valid value");
	}

	private static String plain(@Nullable Number number) {
		return (number != null) ? new BigDecimal(number.toString()).stripTrailingZeros().toPlainString() : "";
	}

	/** Lettuce says "not connected"; the diagnosis names the missing master or node. */
	private Diagnosed diagnose(ProblemType type) {
		boolean unavailable = type == ProblemType.REDIS_UNAVAILABLE || type == ProblemType.REDIS_CLUSTER_DOWN;
		if (!unavailable || this.topology.kind() == Topology.Kind.STANDALONE) {
			return new Diagnosed(type, null);
		}
		RedisDiagnosis.Finding finding = this.diagnosis.diagnose();
		if (finding.writable()) {
			// Writable again: no cause that no longer holds.
			return new Diagnosed(type, null);
		}
		ProblemType refined = switch (finding.cause()) {
			case MASTER_UNREACHABLE -> ProblemType.REDIS_MASTER_UNREACHABLE;
			case SENTINELS_UNREACHABLE -> ProblemType.REDIS_SENTINELS_UNREACHABLE;
			case CLUSTER_DOWN -> ProblemType.REDIS_CLUSTER_DOWN;
			case NODE_UNREACHABLE -> ProblemType.REDIS_NODE_UNREACHABLE;
			case REDIS_UNREACHABLE -> ProblemType.REDIS_UNAVAILABLE;
			case AUTH_FAILED -> ProblemType.REDIS_AUTH_FAILED;
		};
		// A CLUSTERDOWN reply is a cluster down, whatever the slot map says meanwhile.
		return new Diagnosed((type == ProblemType.REDIS_CLUSTER_DOWN) ? type : refined, finding);
	}

	/** Quotes a node's reply only when a node sent one. */
	private static String clusterDown(Throwable cause, String summary) {
		String reply = RedisFailure.errorReply(cause);
		return (reply != null) ? ProblemType.REDIS_CLUSTER_DOWN.detail(reply, summary)
				: ProblemType.REDIS_NODE_UNREACHABLE.detail(summary);
	}

	private record Diagnosed(ProblemType type, RedisDiagnosis.@Nullable Finding finding) {
	}

	private ProblemDetail redisProblem(Diagnosed diagnosed, Throwable cause, @Nullable String key) {
		ProblemType type = diagnosed.type();
		RedisDiagnosis.Finding finding = diagnosed.finding();
		String detail = switch (type) {
			case REDIS_TIMEOUT -> type.detail(this.topology.describe());
			case TOO_BUSY -> "Every Redis connection of this app stayed busy for"
					+ " spring.data.redis.lettuce.pool.max-wait; retry in a moment.";
			case REDIS_AUTH_FAILED -> (RedisReplies.authRefusal(cause) == null && finding != null) ? finding.summary()
					: type.detail(this.topology.describe(), RedisReplies.authRefusal(cause));
			case REDIS_ERROR_REPLY ->
				type.detail((key != null) ? "a command on " + key : "a command", RedisFailure.replyText(cause));
			case REDIS_CLUSTER_DOWN -> clusterDown(cause, (finding != null) ? finding.summary()
					: "The cluster takes writes again once every slot has a reachable master.");
			case REDIS_MASTER_UNREACHABLE, REDIS_SENTINELS_UNREACHABLE, REDIS_NODE_UNREACHABLE -> (finding != null)
					? type.detail(finding.summary()) : ProblemType.REDIS_UNAVAILABLE.detail(this.topology.describe());
			default -> ProblemType.REDIS_UNAVAILABLE.detail(this.topology.describe());
		};
		ProblemDetail problem = Problems.with(Problems.problem(type, detail), "redis", this.topology.nodes());
		if (finding != null) {
			finding.details().forEach(problem::setProperty);
		}
		return Problems.with(problem, "key", (type == ProblemType.REDIS_ERROR_REPLY) ? key : null);
	}

}
