package dev.pipelininglab.web;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Rejects, before anything runs, a query parameter an endpoint does not take (a misspelt
 * {@code ?bacthSize=5} would run with a default nobody asked for) or one given twice.
 */
public class ParameterCheck implements HandlerInterceptor {

	private static final List<String> PERMALINKS = List.of("run", "a", "b");

	/**
	 * The endpoint each handler serves, from the mappings: no asking which one matched.
	 */
	private final Supplier<Map<HandlerMethod, String>> endpoints;

	ParameterCheck(Supplier<RequestMappingHandlerMapping> mapping) {
		this.endpoints = SingletonSupplier.of(() -> {
			Map<HandlerMethod, String> endpoints = new HashMap<>();
			mapping.get()
				.getHandlerMethods()
				.forEach((info, method) -> info.getPatternValues()
					.stream()
					.filter(ParameterCheck::owned)
					.findFirst()
					.ifPresent((path) -> endpoints.put(method.createWithResolvedBean(), path)));
			return endpoints;
		});
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		String path = (handler instanceof HandlerMethod method) ? this.endpoints.get().get(method) : null;
		if (path == null) {
			return true;
		}
		// Query parameters belong to GET: POST /runs takes its body, DELETE none.
		List<String> known = !"GET".equals(request.getMethod()) ? List.of() : path.equals("/") ? PERMALINKS
				: ApiParameter.query(path).stream().map(ApiParameter::parameterName).toList();
		for (Map.Entry<String, String[]> parameter : request.getParameterMap().entrySet()) {
			String name = parameter.getKey();
			if (!known.contains(name)) {
				throw new InvalidParameterException(name, ApiParameter.named(name)
					// variant, a path parameter elsewhere, read as a typo of variants.
					.filter((other) -> other.in() == ApiParameter.In.QUERY || nearest(name, known) == null)
					.map((other) -> "must be left out: it applies to " + other.appliesTo() + " only")
					.orElseGet(() -> unknown("this endpoint has no such parameter", known, name)));
			}
			if (parameter.getValue().length > 1) {
				throw new InvalidParameterException(name, "must be given once, got " + parameter.getValue().length
						+ " values; lists such as batchSizes are comma-separated");
			}
			// Read after the run: a typo in it must not cost a run first.
			if (name.equals(ApiParameter.COLUMNS.parameterName())) {
				ApiParameter.checkColumns(parameter.getValue()[0]);
			}
		}
		return true;
	}

	private static boolean owned(String path) {
		return ApiParameter.describes(path) || path.equals("/") || path.startsWith("/v3/api-docs")
				|| IndexController.ENDPOINTS.stream().anyMatch((endpoint) -> endpoint.path().equals(path));
	}

	public static String unknown(String what, Collection<String> known, String name) {
		String nearest = nearest(name, known);
		return "must be left out: " + what + ((nearest != null) ? "; did you mean " + nearest + "?" : "") + " (known: "
				+ (known.isEmpty() ? "none" : String.join(", ", known)) + ")";
	}

	static @Nullable String nearest(String name, Collection<String> known) {
		String lower = name.toLowerCase(Locale.ROOT);
		return known.stream()
			.min(Comparator.comparingInt((candidate) -> distance(lower, candidate.toLowerCase(Locale.ROOT))))
			.filter((candidate) -> distance(lower, candidate.toLowerCase(Locale.ROOT)) <= Math.max(2,
					candidate.length() / 3))
			.orElse(null);
	}

	/** Damerau-Levenshtein: a swapped pair, the commonest typo, counts once. */
	private static int distance(String a, String b) {
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
				}
			}
		}
		return d[a.length()][b.length()];
	}

}
