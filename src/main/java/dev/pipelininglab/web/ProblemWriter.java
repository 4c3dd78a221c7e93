package dev.pipelininglab.web;

import dev.pipelininglab.ProblemType;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * Problem bodies for answers given before Spring MVC sees the request (the request guard,
 * Tomcat's own error report): the same fields as a {@code ProblemDetail} rendered by MVC.
 * By hand because MVC's message converters write a {@code ProblemDetail} only for a
 * handler.
 */
final class ProblemWriter {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private ProblemWriter() {
	}

	static String body(ProblemType type, String detail, @Nullable String instance) {
		return body(type.uri().toString(), Problems.status(type), type.title(), detail, instance);
	}

	static String body(String type, HttpStatus status, String title, String detail, @Nullable String instance) {
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", type);
		problem.put("title", title);
		problem.put("status", status.value());
		problem.put("detail", detail);
		if (instance != null) {
			problem.put("instance", instance);
		}
		return JSON.writeValueAsString(problem);
	}

	/** An {@code invalid-parameter} problem, naming the parameter as MVC's answers do. */
	static void writeInvalidParameter(HttpServletResponse response, String parameter, String detail,
			@Nullable String instance) throws IOException {
		Map<String, Object> problem = JSON.readValue(body(ProblemType.INVALID_PARAMETER, detail, instance),
				LinkedHashMap.class);
		problem.put("parameter", parameter);
		response.setStatus(Problems.status(ProblemType.INVALID_PARAMETER).value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding("UTF-8");
		response.getWriter().write(JSON.writeValueAsString(problem));
	}

	static void write(HttpServletResponse response, ProblemType type, String detail, @Nullable String instance)
			throws IOException {
		response.setStatus(Problems.status(type).value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding("UTF-8");
		response.getWriter().write(body(type, detail, instance));
	}

}
