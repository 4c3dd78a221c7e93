package dev.pipelininglab.web.problem;

import org.apache.catalina.Host;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Puts {@link ProblemReportValve} in place of the {@link ErrorReportValve} Boot adds: by
 * hand because Boot's valve can be configured but not replaced.
 */
@Component
class TomcatProblems implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

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

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
