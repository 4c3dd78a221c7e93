package dev.pipelininglab.web.problem;

import dev.pipelininglab.ProblemType;
import java.net.URI;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.http.server.PathContainer;

/**
 * The error page ({@code /error}: Tomcat refusing {@code TRACE}, Actuator's bare 404) as
 * problem+json: by hand because Boot 4.1's error controller renders its
 * {@code ErrorAttributes} map, never a problem (spring-boot issue 43850).
 */
@Hidden
@RestController
class ProblemErrorController implements ErrorController {

	private final ObjectProvider<RequestMappingInfoHandlerMapping> mappings;

	ProblemErrorController(ObjectProvider<RequestMappingInfoHandlerMapping> mappings) {
		this.mappings = mappings;
	}

	@RequestMapping("${server.error.path:${error.path:/error}}")
	ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		HttpStatus status = (code instanceof Integer value) ? HttpStatus.resolve(value) : HttpStatus.NOT_FOUND;
		if (status == null || !status.isError()) {
			status = HttpStatus.INTERNAL_SERVER_ERROR;
		}
		String path = (String) request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
		ProblemDetail problem = ProblemDetail.forStatus(status);
		HttpHeaders headers = new HttpHeaders();
		if (status.is5xxServerError()) {
			problem = Problems.of(ProblemType.UNEXPECTED, "request", "processed");
			problem.setStatus(status);
		}
		else if (status == HttpStatus.METHOD_NOT_ALLOWED && path != null) {
			Set<HttpMethod> allowed = allowedMethods(request, path);
			headers.setAllow(allowed);
			problem.setDetail("The request's method is not supported here; it takes "
					+ allowed.stream().map(HttpMethod::name).sorted().collect(Collectors.joining(", ")) + ".");
		}
		else if (status == HttpStatus.NOT_FOUND) {
			problem.setDetail("No such resource.");
		}
		if (path != null) {
			try {
				problem.setInstance(URI.create(path));
			}
			catch (IllegalArgumentException ex) {
				// Not a valid URI reference: no instance.
			}
		}
		return ResponseEntity.status(status).headers(headers).body(problem);
	}

	/** The mappings' methods for the path: Tomcat's own {@code Allow} lists them all. */
	private Set<HttpMethod> allowedMethods(HttpServletRequest request, String path) {
		PathContainer route = PathContainer.parsePath(path.substring(request.getContextPath().length()));
		Set<HttpMethod> allowed = this.mappings.orderedStream()
			.flatMap((mapping) -> mapping.getHandlerMethods().keySet().stream())
			.filter((info) -> info.getPathPatternsCondition() != null
					&& info.getPathPatternsCondition().getPatterns().stream().anyMatch((p) -> p.matches(route)))
			.flatMap((info) -> info.getMethodsCondition().getMethods().stream())
			.map((method) -> HttpMethod.valueOf(method.name()))
			.collect(Collectors.toCollection(HashSet::new));
		// Static resources, every other path's fallback, take reads only.
		if (allowed.isEmpty() || allowed.contains(HttpMethod.GET)) {
			allowed.addAll(Set.of(HttpMethod.GET, HttpMethod.HEAD));
		}
		return allowed;
	}

}
