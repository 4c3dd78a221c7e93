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
 * Sends Actuator's bodiless errors ({@code /actuator/metrics/nonexistent}) to the error
 * page: by hand because they are plain responses, which no exception handler sees.
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
