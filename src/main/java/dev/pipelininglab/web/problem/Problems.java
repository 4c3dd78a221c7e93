package dev.pipelininglab.web.problem;

import java.io.IOException;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.pipelininglab.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;

/**
 * The HTTP side of {@link ProblemType}: each type's status and {@link ProblemDetail}, and
 * its body for answers given before Spring MVC sees the request (the request guards,
 * Tomcat's own error report), rendered with Spring's own {@code ProblemDetail} mixin.
 */
public final class Problems {

	private static final JsonMapper JSON = JsonMapper.builder()
		.addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class)
		.build();

	private static final int QUOTED = 40;

	private static final Pattern QUOTE = Pattern.compile("'([^']*)'");

	/** What {@link Character#isISOControl} tells apart. */
	private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1f\\x7f-\\x9f]");

	private Problems() {
	}

	public static ProblemDetail of(ProblemType type, @Nullable Object... values) {
		return problem(type, type.detail(values));
	}

	/**
	 * An invalid parameter's detail quotes the value given: cut short and made visible.
	 */
	public static ProblemDetail problem(ProblemType type, @Nullable String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(type.status()),
				(type == ProblemType.INVALID_PARAMETER && detail != null) ? quotedShort(detail) : detail);
		problem.setType(type.uri());
		problem.setTitle(type.title());
		return problem;
	}

	/**
	 * Adds the given name, value pairs but those of no value: a field only where it means
	 * something.
	 */
	static ProblemDetail with(ProblemDetail problem, @Nullable Object... pairs) {
		for (int i = 0; i < pairs.length; i += 2) {
			if (pairs[i + 1] != null) {
				problem.setProperty(String.valueOf(pairs[i]), pairs[i + 1]);
			}
		}
		return problem;
	}

	public static ProblemDetail invalidParameter(@Nullable String parameter, @Nullable String detail) {
		ProblemDetail problem = problem(ProblemType.INVALID_PARAMETER, detail);
		problem.setProperty("parameter", parameter);
		return problem;
	}

	static String body(ProblemDetail problem) {
		return JSON.writeValueAsString(problem);
	}

	public static void write(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem)
			throws IOException {
		problem.setInstance(URI.create(request.getRequestURI()));
		response.setStatus(problem.getStatus());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding("UTF-8");
		response.getWriter().write(body(problem));
	}

	/** Quoted values cut, control characters escaped: no 16 KB or invisible echo. */
	static String quotedShort(String detail) {
		return QUOTE.matcher(detail).replaceAll((quoted) -> {
			String value = quoted.group(1);
			String shown = (value.length() > QUOTED) ? value.substring(0, QUOTED) + "\u2026" : value;
			return Matcher
				.quoteReplacement("'"
						+ CONTROL.matcher(shown)
							.replaceAll((control) -> String.format("\\\\u%04x", (int) control.group().charAt(0)))
						+ "'");
		});
	}

}
