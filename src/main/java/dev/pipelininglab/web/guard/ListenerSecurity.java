package dev.pipelininglab.web.guard;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.web.problem.ProblemWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

import jakarta.servlet.DispatcherType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.http.HttpHeaders;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.util.StringUtils;

/**
 * Who may reach the app, decided by where it listens. On loopback (the default
 * {@code server.address: 127.0.0.1}) only this machine reaches the port and nothing is
 * asked: no security filter exists. Beyond it (another address, or none, which is every
 * interface), anyone who reaches the port could load the user's Redis and delete the
 * lab's keys, and the {@code Host} check stops a rebinding browser, not a neighbour:
 * every endpoint but the health probes then needs HTTP Basic with Spring Boot's own
 * {@code spring.security.user.*}, and the app does not start without them unless
 * {@code lab.security.open=true} says the port is the user's alone.
 * <p>
 * Spring Boot's servlet security auto-configuration is excluded
 * ({@code PipeliningLabApplication}), as it would secure loopback too; Boot still binds
 * {@code spring.security.user.*} and registers the filter chain built here.
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

	/**
	 * Loopback only when the address is one: blank is Tomcat's every interface, and a
	 * name that does not resolve fails Tomcat's bind anyway.
	 */
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

	/**
	 * A password with text: Boot generates one when none is set, and an empty
	 * {@code SPRING_SECURITY_USER_PASSWORD} (a Secret left blank) must not be a password
	 * anyone could send.
	 */
	static boolean credentialsGiven(Environment environment) {
		return StringUtils.hasText(environment.getProperty("spring.security.user.password"));
	}

	/** Beyond loopback with credentials: the one case with a security filter. */
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
		 * How Boot treats a configured password: one that names its encoding
		 * ({@code {bcrypt}...}) is kept, any other is plain text.
		 */
		private static final Pattern ENCODED = Pattern.compile("^\\{.+}.*$");

		/**
		 * What the lab needs of Spring Security is who may ask: its own request guard
		 * (RequestGuard, before this chain) stays the defence against other sites' pages,
		 * so CSRF tokens are off and the page's POSTs and {@code curl -X DELETE} work
		 * with credentials alone. No session: every request carries them.
		 */
		@Bean
		SecurityFilterChain basicAuthentication(HttpSecurity http) {
			AuthenticationEntryPoint credentialsRequired = (request, response, failure) -> {
				response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"pipelining-lab\", charset=\"UTF-8\"");
				ProblemWriter.write(response, ProblemType.CREDENTIALS_REQUIRED,
						ProblemType.CREDENTIALS_REQUIRED.detail(), request.getRequestURI());
			};
			return http.authorizeHttpRequests((requests) -> requests
				// An error page or an async dispatch (event streams) follows a request
				// that was let in.
				.dispatcherTypeMatchers(DispatcherType.ERROR, DispatcherType.ASYNC)
				.permitAll()
				// The probes: statuses only (application.yml), and the kubelet or
				// Compose's healthcheck has no credentials.
				.requestMatchers("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness")
				.permitAll()
				.anyRequest()
				.authenticated())
				.httpBasic((basic) -> basic.authenticationEntryPoint(credentialsRequired))
				.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(credentialsRequired))
				.csrf(AbstractHttpConfigurer::disable)
				.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
				.build();
		}

		/** The one user, from Boot's own {@code spring.security.user.*}. */
		@Bean
		InMemoryUserDetailsManager labUser(org.springframework.boot.security.autoconfigure.SecurityProperties boot) {
			var user = boot.getUser();
			String password = ENCODED.matcher(user.getPassword()).matches() ? user.getPassword()
					: "{noop}" + user.getPassword();
			return new InMemoryUserDetailsManager(User.withUsername(user.getName())
				.password(password)
				.roles(user.getRoles().toArray(String[]::new))
				.build());
		}

	}

}
