package dev.pipelininglab.web.guard;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.web.problem.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;

import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds request bodies by {@code lab.limits.max-body-bytes} before anything parses them
 * (four 50 MB bodies ran the parser out of memory; Tomcat's size limits cover forms and
 * multipart, not JSON): a declared length over it is a 413 unread, and a chunked body is
 * read here up to one byte past it, a 413 there, else handed on from memory. After a 413
 * Tomcat closes the connection instead of reading (swallowing) the rest of the body.
 */
@Component
class BodyLimit extends OncePerRequestFilter implements TomcatContextCustomizer {

	private final int maxBytes;

	BodyLimit(LimitProperties limits) {
		this.maxBytes = limits.maxBodyBytes();
	}

	@Override
	public void customize(Context context) {
		context.setSwallowAbortedUploads(false);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		long declared = request.getContentLengthLong();
		if (declared >= 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) == null) {
			if (declared > this.maxBytes) {
				tooLarge(request, response, "has " + declared + " bytes");
				return;
			}
			chain.doFilter(request, response);
			return;
		}
		byte[] body;
		try {
			body = request.getInputStream().readNBytes(this.maxBytes + 1);
		}
		catch (IOException ex) {
			Problems.write(request, response, Problems.problem(ProblemType.MALFORMED_REQUEST,
					"The body could not be read: its chunked encoding is broken, or it ended early."));
			return;
		}
		if (body.length > this.maxBytes) {
			tooLarge(request, response, "is chunked and longer than that");
			return;
		}
		chain.doFilter(new ReadAhead(request, new ByteArrayInputStream(body)), response);
	}

	private void tooLarge(HttpServletRequest request, HttpServletResponse response, String body) throws IOException {
		Problems.write(request, response,
				ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE,
						"This app reads at most " + this.maxBytes
								+ " bytes of a body (lab.limits.max-body-bytes), and a run's"
								+ " JSON takes a few hundred; this one " + body + "."));
	}

	private static final class ReadAhead extends HttpServletRequestWrapper {

		private final ByteArrayInputStream body;

		ReadAhead(HttpServletRequest request, ByteArrayInputStream body) {
			super(request);
			this.body = body;
		}

		@Override
		public ServletInputStream getInputStream() {
			return new ServletInputStream() {

				@Override
				public int read() {
					return ReadAhead.this.body.read();
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					// A parser reads blocks: byte by byte would cost a call per byte.
					return ReadAhead.this.body.read(buffer, offset, length);
				}

				@Override
				public boolean isFinished() {
					return ReadAhead.this.body.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new UnsupportedOperationException("Read ahead by BodyLimit: there is nothing to wait for");
				}

			};
		}

	}

}
