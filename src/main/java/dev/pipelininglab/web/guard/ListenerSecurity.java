package dev.pipelininglab.web.guard;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.web.problem.Problems;
import java.net.InetAddress;
import java.net.UnknownHostException;

import jakarta.servlet.DispatcherType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.util.StringUtils;

/**
 * On loopback nothing is asked; beyond it, HTTP Basic with Boot's
 * {@code spring.security.user.*} (or {@code lab.security.open=true}), else no start.
 * Boot's servlet security auto-configuration is excluded because it would secure loopback
 * too.
 */
@Configuration(proxyBeanMethods = false)
class ListenerSecurity {

	private static final Logger log = LoggerFactory.getLogger(ListenerSecurity.class);

	ListenerSecurity(SecurityProperties security, Environment environment) {
		String address = environment.getProperty("server.address", "");
		if (onLoopback(address)) {
			return;
		}
		String where = address.isBlank() ? "every interface (server.address is not set)" : address;
		if (credentialsGiven(environment)) {
			log.info("Listening on {}, beyond loopback: every endpoint but the health probes asks for HTTP Basic"
					+ " credentials (spring.security.user.*)", where);
		}
		else if (security.open()) {
			log.warn("Listening on {}, beyond loopback, without credentials (lab.security.open=true): whoever reaches"
					+ " the port can start runs on your Redis and delete the lab's keys", where);
		}
		else {
			throw new ListenerRefused(where);
		}
	}

	/** Blank is every interface; an unresolvable name fails Tomcat's bind anyway. */
	static boolean onLoopback(String address) {
		if (address.isBlank()) {
			return false;
		}
		try {
			return InetAddress.getByName(address.trim()).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

	/** Text, not Boot's generated one, and not a Secret left blank. */
	static boolean credentialsGiven(Environment environment) {
		return StringUtils.hasText(environment.getProperty("spring.security.user.password"));
	}

	static final class BeyondLoopbackWithCredentials implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Environment environment = context.getEnvironment();
			return !onLoopback(environment.getProperty("server.address", "")) && credentialsGiven(environment);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(BeyondLoopbackWithCredentials.class)
	@EnableWebSecurity
	static class BasicAuthentication {

		/**
		 * The probes' callers (kubelet, Compose) have no credentials, and nothing here
		 * reads any: no, wrong and right ones get the same answer.
		 */
		@Bean
		@Order(Ordered.HIGHEST_PRECEDENCE)
		SecurityFilterChain healthProbes(HttpSecurity http) {
			return http.securityMatcher("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness")
				.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
				.csrf(AbstractHttpConfigurer::disable)
				.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
				.build();
		}

		/** No CSRF tokens or sessions: RequestGuard, before this, stops other sites. */
		@Bean
		SecurityFilterChain basicAuthentication(HttpSecurity http,
				org.springframework.boot.security.autoconfigure.SecurityProperties boot) {
			AuthenticationEntryPoint refused = (request, response, failure) -> {
				if (failure instanceof LabLogin.TooManyFailures tooMany) {
					ProblemDetail problem = Problems.of(ProblemType.TOO_MANY_FAILED_LOGINS, LabLogin.FAILURES);
					problem.setProperty("retryAfterSeconds", tooMany.retryAfterSeconds());
					response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(tooMany.retryAfterSeconds()));
					Problems.write(request, response, problem);
					return;
				}
				response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"pipelining-lab\", charset=\"UTF-8\"");
				Problems.write(request, response, Problems.of(ProblemType.CREDENTIALS_REQUIRED));
			};
			// No parent manager: a failure is checked and counted once.
			LabLogin login = new LabLogin(boot.getUser().getName(), boot.getUser().getPassword(), System::nanoTime);
			return http.authorizeHttpRequests((requests) -> requests
				// Error pages and async dispatches follow a request already let in.
				.dispatcherTypeMatchers(DispatcherType.ERROR, DispatcherType.ASYNC)
				.permitAll()
				.anyRequest()
				.authenticated())
				.authenticationManager(new ProviderManager(login))
				.httpBasic((basic) -> basic.authenticationEntryPoint(refused))
				.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(refused))
				.csrf(AbstractHttpConfigurer::disable)
				.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
				.build();
		}

	}

	/**
	 * The app was asked to listen beyond loopback with neither credentials nor
	 * {@code lab.security.open=true}: it stops before it opens the port.
	 */
	static class ListenerRefused extends RuntimeException {

		private static final long serialVersionUID = 1L;

		static final String ACTION = "Set spring.security.user.name and spring.security.user.password"
				+ " (SPRING_SECURITY_USER_NAME and SPRING_SECURITY_USER_PASSWORD, in Kubernetes from a Secret) for HTTP"
				+ " Basic on every endpoint but the health probes; or lab.security.open=true (LAB_SECURITY_OPEN=true) if"
				+ " only you can reach the port, e.g. a container port published on 127.0.0.1; or listen on loopback"
				+ " (server.address=127.0.0.1, the default).";

		ListenerRefused(String where) {
			super("The app would listen on " + where + ", beyond loopback, without credentials: anyone who reaches the"
					+ " port could start runs on your Redis and delete the lab's keys, so it does not start. "
					+ ACTION);
		}

		/** Boot's failure report: the reason and what to set, without a stack trace. */
		static class Analyzer extends AbstractFailureAnalyzer<ListenerRefused> {

			@Override
			protected FailureAnalysis analyze(Throwable rootFailure, ListenerRefused cause) {
				String message = String.valueOf(cause.getMessage());
				return new FailureAnalysis(message.substring(0, message.length() - ACTION.length()).trim(), ACTION,
						cause);
			}

		}

	}

}
