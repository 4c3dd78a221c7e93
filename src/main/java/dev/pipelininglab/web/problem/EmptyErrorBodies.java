package dev.pipelininglab.web.problem;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Actuator endpoints answer some errors with a status and no body
 * ({@code /actuator/metrics/nonexistent} is a bare 404); those go to the error page,
 * which gives them a problem body like every other error. By hand because Actuator
 * returns these as plain responses, not exceptions, so no exception handler sees them.
 */
@Component
class EmptyErrorBodies extends OncePerRequestFilter {

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !request.getRequestURI().startsWith(request.getContextPath() + "/actuator/");
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		ContentCachingResponseWrapper cached = new ContentCachingResponseWrapper(response);
		chain.doFilter(request, cached);
		if (cached.getStatus() >= 400 && cached.getContentSize() == 0 && !response.isCommitted()) {
			response.sendError(cached.getStatus());
			return;
		}
		cached.copyBodyToResponse();
	}

}
