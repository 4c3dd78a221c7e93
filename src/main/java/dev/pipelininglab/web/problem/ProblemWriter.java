package dev.pipelininglab.web.problem;

import dev.pipelininglab.ProblemType;
import java.io.IOException;
import java.net.URI;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;

/**
 * Problem bodies for answers given before Spring MVC sees the request (the request
 * guards, Tomcat's own error report), rendered with Spring's own {@code ProblemDetail}
 * mixin.
 */
public final class ProblemWriter {

	private static final JsonMapper JSON = JsonMapper.builder()
		.addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class)
		.build();

	private ProblemWriter() {
	}

	static String body(ProblemDetail problem) {
		return JSON.writeValueAsString(problem);
	}

	public static void write(HttpServletResponse response, ProblemType type, String detail, @Nullable String instance)
			throws IOException {
		write(response, Problems.problem(type, detail), instance);
	}

	public static void write(HttpServletResponse response, ProblemDetail problem, @Nullable String instance)
			throws IOException {
		problem.setInstance((instance != null) ? URI.create(instance) : null);
		response.setStatus(problem.getStatus());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding("UTF-8");
		response.getWriter().write(body(problem));
	}

}
