package dev.pipelininglab.web.guard;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.web.RunEndpoint;
import dev.pipelininglab.web.problem.Problems;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UrlPathHelper;

/**
 * Turns away, first, a foreign {@code Host} (DNS rebinding), a run or delete from another
 * site's page (run endpoints are GETs that write: a foreign {@code Origin},
 * {@code Referer} or {@code Sec-Fetch-Site}), and a query string Tomcat cannot decode.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class RequestGuard extends OncePerRequestFilter {

	private static final Logger log = LoggerFactory.getLogger(RequestGuard.class);

	/** GETs that write, misspelt ones ({@code /pipe<anything>}) and paths below. */
	private static final Pattern RUN_PATHS = Pattern
		.compile("/(" + RunEndpoint.namesPattern() + "|compare|sweep)(/.*)?");

	private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

	private final Set<String> allowedHosts = new TreeSet<>();

	RequestGuard(SecurityProperties security, @Value("${server.address:}") String serverAddress) {
		security.allowedHosts().forEach((host) -> this.allowedHosts.add(normalize(host)));
		if (!serverAddress.isBlank()) {
			this.allowedHosts.add(normalize(serverAddress));
		}
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String host = normalize(request.getServerName());
		if (!this.allowedHosts.contains("*") && !this.allowedHosts.contains(host)) {
			log.warn("Refused a request for host '{}' (allowed: {}; see lab.security.allowed-hosts)", host,
					this.allowedHosts);
			Problems.write(request, response, Problems.of(ProblemType.HOST_NOT_ALLOWED));
			return;
		}
		if (writes(request) && crossSite(request)) {
			Problems.write(request, response, Problems.of(ProblemType.CROSS_SITE_REQUEST));
			return;
		}
		try {
			request.getParameterMap();
		}
		catch (InvalidParameterException ex) {
			Problems.write(request, response,
					Problems.problem(ProblemType.MALFORMED_REQUEST,
							"The query string is not valid percent-encoded UTF-8 (every '%' must start a"
									+ " two-digit hex escape of a UTF-8 byte sequence)."));
			return;
		}
		chain.doFilter(request, response);
	}

	private static boolean writes(HttpServletRequest request) {
		// The decoded path Spring MVC matches: on the raw one, /%70ipeget/1 passed as a
		// read.
		return !READS.contains(request.getMethod())
				|| RUN_PATHS.matcher(UrlPathHelper.defaultInstance.getPathWithinApplication(request)).matches();
	}

	/**
	 * Browsers send {@code Sec-Fetch-Site} (to HTTPS and localhost only), {@code Origin}
	 * (not on a plain GET) or a {@code Referer} (an {@code <img>} on another site's
	 * page); curl sends none.
	 */
	private static boolean crossSite(HttpServletRequest request) {
		// same-site is another origin too (another port): only same-origin is ours.
		String site = request.getHeader("Sec-Fetch-Site");
		return "cross-site".equalsIgnoreCase(site) || "same-site".equalsIgnoreCase(site)
				|| foreign(request, request.getHeader(HttpHeaders.ORIGIN))
				|| foreign(request, request.getHeader(HttpHeaders.REFERER));
	}

	/** Spring's Origin check on either header's URL; one it cannot read is foreign. */
	private static boolean foreign(HttpServletRequest request, @Nullable String url) {
		if (url == null) {
			return false;
		}
		try {
			return CorsUtils.isCorsRequest(new HttpServletRequestWrapper(request) {

				@Override
				public @Nullable String getHeader(String name) {
					return HttpHeaders.ORIGIN.equalsIgnoreCase(name) ? url : super.getHeader(name);
				}

			});
		}
		catch (IllegalArgumentException ex) {
			return true;
		}
	}

	private static String normalize(String host) {
		String name = host.trim().toLowerCase(Locale.ROOT);
		if (name.startsWith("[") && name.endsWith("]")) {
			name = name.substring(1, name.length() - 1);
		}
		return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
	}

}
