package dev.pipelininglab.web;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.server.PathContainer;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * A run's answer leaves whole, with its length, before its request leaves the servlet:
 * Boot's graceful shutdown waits only for requests still inside it, and Tomcat writes a
 * chunked answer's last chunk after that, so the web server stopping in between cut short
 * the 503 of a GET run that the closing app had stopped (seen once under load, in
 * {@code GracefulShutdownTests}).
 */
@Component
class WholeAnswerFilter extends OncePerRequestFilter {

	private static final Logger log = LoggerFactory.getLogger(WholeAnswerFilter.class);

	private static final List<PathPattern> RUNS = RunSlotsConfiguration.GATED.stream()
		.map(PathPatternParser.defaultInstance::parse)
		.toList();

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		PathContainer path = PathContainer
			.parsePath(request.getRequestURI().substring(request.getContextPath().length()));
		return RUNS.stream().noneMatch((pattern) -> pattern.matches(path));
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		ContentCachingResponseWrapper whole = new ContentCachingResponseWrapper(response);
		chain.doFilter(request, whole);
		if (whole.getContentSize() == 0 && !response.isCommitted()) {
			// A bodiless answer (499 to a caller that hung up) is whole too, not chunked.
			response.setContentLength(0);
		}
		try {
			whole.copyBodyToResponse();
			response.flushBuffer();
		}
		catch (IOException ex) {
			// The caller is gone, as when Tomcat's own last write fails.
			log.debug("The answer to {} found its caller gone: {}", request.getRequestURI(), ex.toString());
		}
	}

}
