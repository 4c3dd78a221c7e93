package dev.pipelininglab.web.guard;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.web.RunEndpoint;
import dev.pipelininglab.web.problem.ProblemWriter;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UrlPathHelper;

/**
 * Turns away, before anything else runs, what no handler should see: a {@code Host} this
 * server is not (DNS rebinding), a run or delete sent by another site's page (the run
 * endpoints are GETs that write, and a browser sends those from any page), and a query
 * string that is not valid percent-encoded UTF-8 (Tomcat decodes it lazily and would
 * throw from the middle of a handler).
 */
@Component
class RequestGuard extends OncePerRequestFilter implements Ordered {

	private static final Logger log = LoggerFactory.getLogger(RequestGuard.class);

	/**
	 * The GET endpoints that write to Redis, with any path below them, and any name in
	 * their ways ({@code /pipe<anything>}, so a misspelt one is refused too); every other
	 * method that is not a read writes too.
	 */
	private static final Pattern RUN_PATHS = Pattern
		.compile("/(" + RunEndpoint.namesPattern() + "|compare|sweep)(/.*)?");

	private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

	/** Decodes and drops {@code ;parameters}, as the path Spring MVC matches does. */
	private static final UrlPathHelper ROUTED = new UrlPathHelper();

	static {
		ROUTED.setUrlDecode(true);
		ROUTED.setRemoveSemicolonContent(true);
	}

	private final Set<String> allowedHosts = new TreeSet<>();

	private final boolean anyHost;

	RequestGuard(SecurityProperties security, @Value("${server.address:}") String serverAddress) {
		security.allowedHosts().forEach((host) -> this.allowedHosts.add(normalize(host)));
		if (!serverAddress.isBlank()) {
			this.allowedHosts.add(normalize(serverAddress));
		}
		this.anyHost = this.allowedHosts.contains("*");
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String host = normalize(request.getServerName());
		if (!this.anyHost && !this.allowedHosts.contains(host)) {
			log.warn("Refused a request for host '{}' (allowed: {}; see lab.security.allowed-hosts)", host,
					this.allowedHosts);
			ProblemWriter.write(response, ProblemType.HOST_NOT_ALLOWED, ProblemType.HOST_NOT_ALLOWED.detail(),
					request.getRequestURI());
			return;
		}
		if (writes(request) && crossSite(request)) {
			ProblemWriter.write(response, ProblemType.CROSS_SITE_REQUEST, ProblemType.CROSS_SITE_REQUEST.detail(),
					request.getRequestURI());
			return;
		}
		try {
			request.getParameterMap();
		}
		catch (InvalidParameterException ex) {
			ProblemWriter.write(response, ProblemType.MALFORMED_REQUEST,
					"The query string is not valid percent-encoded UTF-8 (every '%' must start a"
							+ " two-digit hex escape of a UTF-8 byte sequence).",
					request.getRequestURI());
			return;
		}
		chain.doFilter(request, response);
	}

	/**
	 * Decided on the path Spring MVC routes by, decoded and without path parameters: on
	 * the raw URI, {@code /%70ipeget/1} and {@code /pipeget;x=1/1} passed for reads, and
	 * then ran and wrote.
	 */
	private static boolean writes(HttpServletRequest request) {
		return !READS.contains(request.getMethod())
				|| RUN_PATHS.matcher(ROUTED.getPathWithinApplication(request)).matches();
	}

	/**
	 * A browser says where a request comes from: {@code Sec-Fetch-Site} in current ones,
	 * {@code Origin} on every non-GET and on cross-origin fetches. Clients that are not
	 * browsers (curl, Postman, scripts) send neither.
	 */
	private static boolean crossSite(HttpServletRequest request) {
		// same-site is another origin too (another port of 127.0.0.1 is the same site),
		// and a browser sends no Origin with a plain GET: only same-origin is the lab's
		// own page.
		String site = request.getHeader("Sec-Fetch-Site");
		if ("cross-site".equalsIgnoreCase(site) || "same-site".equalsIgnoreCase(site)) {
			return true;
		}
		String origin = request.getHeader(HttpHeaders.ORIGIN);
		return origin != null && !authority(origin).equals(hostHeader(request));
	}

	private static String authority(String origin) {
		try {
			URI uri = URI.create(origin.trim());
			if (uri.getHost() == null) {
				return "";
			}
			int port = (uri.getPort() != -1) ? uri.getPort() : ("https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80);
			return normalize(uri.getHost()) + ":" + port;
		}
		catch (IllegalArgumentException ex) {
			// "null" (a sandboxed page, a file) and anything unparseable are foreign.
			return "";
		}
	}

	private static String hostHeader(HttpServletRequest request) {
		return normalize(request.getServerName()) + ":" + request.getServerPort();
	}

	private static String normalize(@Nullable String host) {
		if (host == null) {
			return "";
		}
		String name = host.trim().toLowerCase(Locale.ROOT);
		if (name.startsWith("[") && name.endsWith("]")) {
			name = name.substring(1, name.length() - 1);
		}
		return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
	}

}
