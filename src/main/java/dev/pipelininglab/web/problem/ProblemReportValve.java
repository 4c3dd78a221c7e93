package dev.pipelininglab.web.problem;

import dev.pipelininglab.ProblemType;
import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

/**
 * Tomcat's own error answers (a request it refuses before any servlet sees it: bad
 * percent-encoding in the path, a request line or header over its limits) as problem+json
 * instead of its HTML page. Errors inside the app never get here: they are answered by
 * Spring MVC or the {@code /error} controller, which write a body first. By hand because
 * Tomcat answers these before any filter or servlet, where no Spring or Boot feature
 * reaches.
 */
class ProblemReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int code = response.getStatus();
		// The same guards as Tomcat's own report: only errors, only once, only while the
		// connection can still take a body.
		if (code < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		AtomicBoolean ioAllowed = new AtomicBoolean(true);
		response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
		if (!ioAllowed.get()) {
			return;
		}
		String body = ProblemWriter.body((code == 400)
				? Problems.problem(ProblemType.MALFORMED_REQUEST,
						"The server could not read the request: bad percent-encoding in the path, or a request line"
								+ " or header longer than it accepts.")
				: ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(code), "The server refused the request."),
				null);
		try {
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			response.setCharacterEncoding("UTF-8");
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(body);
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// The client is gone or the response was taken: nothing more to tell it.
		}
	}

}
