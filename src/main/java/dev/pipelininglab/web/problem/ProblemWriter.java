package dev.pipelininglab.web.problem;

import dev.pipelininglab.ProblemType;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.ProblemDetail;
import org.springframework.http.MediaType;

/**
 * Problem bodies for answers given before Spring MVC sees the request (the request guard,
 * Tomcat's own error report): the same fields as a {@code ProblemDetail} rendered by MVC.
 * By hand because MVC's message converters write a {@code ProblemDetail} only for a
 * handler.
 */
public final class ProblemWriter {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private ProblemWriter() {
	}

	/** The fields MVC renders for this problem, empty ones left out. */
	static String body(ProblemDetail problem, @Nullable String instance) {
		Map<String, @Nullable Object> fields = new LinkedHashMap<>();
		fields.put("type", problem.getType());
		fields.put("title", problem.getTitle());
		fields.put("status", problem.getStatus());
		fields.put("detail", problem.getDetail());
		fields.put("instance", instance);
		Map<String, Object> properties = problem.getProperties();
		if (properties != null) {
			fields.putAll(properties);
		}
		fields.values().removeIf(Objects::isNull);
		return JSON.writeValueAsString(fields);
	}

	public static void write(HttpServletResponse response, ProblemType type, String detail, @Nullable String instance)
			throws IOException {
		write(response, Problems.problem(type, detail), instance);
	}

	public static void write(HttpServletResponse response, ProblemDetail problem, @Nullable String instance)
			throws IOException {
		response.setStatus(problem.getStatus());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding("UTF-8");
		response.getWriter().write(body(problem, instance));
	}

}
