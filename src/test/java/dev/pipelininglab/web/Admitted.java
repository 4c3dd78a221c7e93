package dev.pipelininglab.web;

import java.util.List;

/**
 * The catalogue's endpoints that run on Redis under admission, as {@code METHOD example},
 * for tests outside this package.
 */
public final class Admitted {

	public static final List<String> EXAMPLES = IndexController.ENDPOINTS.stream()
		.filter(IndexController.Endpoint::admitted)
		.map((endpoint) -> endpoint.method() + " " + endpoint.example())
		.toList();

	private Admitted() {
	}

}
