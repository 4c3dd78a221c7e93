package dev.pipelininglab.web.guard;

import java.io.IOException;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.web.problem.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds request bodies by {@code lab.limits.max-body-bytes} before anything parses them
 * (four 50 MB bodies ran the parser out of memory): a 413 for a declared length, a cut
 * for a chunked one.
 */
@Component
class BodyLimit extends OncePerRequestFilter {

	private final int maxBytes;

	BodyLimit(LimitProperties limits) {
		this.maxBytes = limits.maxBodyBytes();
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > this.maxBytes) {
			Problems.write(response, ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE,
					"The body has " + request.getContentLengthLong() + " bytes; this app reads at most " + this.maxBytes
							+ " (lab.limits.max-body-bytes), and a run's JSON takes a few hundred."),
					request.getRequestURI());
			return;
		}
		chain.doFilter(new Bounded(request, this.maxBytes), response);
	}

	private static final class Bounded extends HttpServletRequestWrapper {

		private final int maxBytes;

		private @Nullable ServletInputStream input;

		Bounded(HttpServletRequest request, int maxBytes) {
			super(request);
			this.maxBytes = maxBytes;
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			if (this.input == null) {
				ServletInputStream body = super.getInputStream();
				this.input = new ServletInputStream() {

					private long read;

					@Override
					public int read() throws IOException {
						if (this.read >= Bounded.this.maxBytes) {
							throw new IOException("Request body longer than lab.limits.max-body-bytes ("
									+ Bounded.this.maxBytes + " bytes)");
						}
						int next = body.read();
						if (next >= 0) {
							this.read++;
						}
						return next;
					}

					@Override
					public boolean isFinished() {
						return body.isFinished();
					}

					@Override
					public boolean isReady() {
						return body.isReady();
					}

					@Override
					public void setReadListener(ReadListener listener) {
						body.setReadListener(listener);
					}

				};
			}
			return this.input;
		}

	}

}
