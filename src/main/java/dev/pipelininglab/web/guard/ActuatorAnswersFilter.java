package dev.pipelininglab.web.guard;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.web.ParameterCheck;
import dev.pipelininglab.web.problem.Problems;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Actuator's endpoints, which interceptors and exception handlers miss, under the lab's
 * rules: {@link ParameterCheck}'s on parameters, and its bodiless errors
 * ({@code /actuator/metrics/nonexistent}) sent to the error page for a problem.
 */
@Component
class ActuatorAnswersFilter extends OncePerRequestFilter {

	/** What each exposed endpoint takes; the rest take none. */
	private static final Map<String, List<String>> KNOWN = Map.of("metrics", List.of("tag"), "prometheus",
			List.of("includedNames"));

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !path(request).startsWith("/actuator");
	}

	private static String path(HttpServletRequest request) {
		return request.getRequestURI().substring(request.getContextPath().length());
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String[] segments = path(request).split("/");
		List<String> known = (segments.length > 2) ? KNOWN.getOrDefault(segments[2], List.of()) : List.of();
		for (String name : request.getParameterMap().keySet()) {
			if (!known.contains(name)) {
				Problems.write(request, response, Problems.invalidParameter(name,
						name + " " + ParameterCheck.unknown("this endpoint has no such parameter", known, name)));
				return;
			}
		}
		ContentCachingResponseWrapper cached = new ContentCachingResponseWrapper(response);
		chain.doFilter(request, cached);
		if (cached.getStatus() >= 400 && cached.getContentSize() == 0 && !response.isCommitted()) {
			response.sendError(cached.getStatus());
			return;
		}
		cached.copyBodyToResponse();
	}

}
