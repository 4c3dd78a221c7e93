package dev.pipelininglab.web.problem;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.pipelininglab.ProblemType;
import org.apache.catalina.Host;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

/**
 * Puts {@link ProblemReportValve} in place of the {@link ErrorReportValve} Boot adds: by
 * hand because Boot's valve can be configured but not replaced.
 */
@Component
class TomcatProblems implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.addContextCustomizers((context) -> {
			Host host = (Host) context.getParent();
			if (host instanceof StandardHost standard) {
				standard.setErrorReportValveClass(ProblemReportValve.class.getName());
			}
			for (Valve valve : host.getPipeline().getValves()) {
				if (valve instanceof ErrorReportValve && !(valve instanceof ProblemReportValve)) {
					host.getPipeline().removeValve(valve);
				}
			}
			host.getPipeline().addValve(new ProblemReportValve());
		});
	}

	/**
	 * Tomcat's own refusals (bad path encoding, a request line or header over its limits)
	 * as problem+json: by hand because they happen before any filter or servlet Spring
	 * reaches.
	 */
	static class ProblemReportValve extends ErrorReportValve {

		@Override
		protected void report(Request request, Response response, Throwable throwable) {
			int code = response.getStatus();
			// Tomcat's own report's guards: errors only, once, while a body can still go
			// out.
			if (code < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
				return;
			}
			AtomicBoolean ioAllowed = new AtomicBoolean(true);
			response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
			if (!ioAllowed.get()) {
				return;
			}
			String body = Problems.body((code == 400)
					? Problems.problem(ProblemType.MALFORMED_REQUEST,
							"The server could not read the request: bad percent-encoding in the path, or a request"
									+ " line or header longer than it accepts.")
					: ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(code),
							"The server refused the request."));
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

}
