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
 * Tomcat's own refusals (bad path encoding, a request line or header over its limits) as
 * problem+json: by hand because they happen before any filter or servlet Spring reaches.
 */
class ProblemReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int code = response.getStatus();
		// Tomcat's own report's guards: errors only, once, while a body can still go out.
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
				: ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(code), "The server refused the request."));
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
		}
	}

}
