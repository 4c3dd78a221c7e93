package dev.pipelininglab.web;

import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /compare} and {@code /sweep} missing a path segment ({@code /compare/set}): a
 * 400 naming it rather than a bare 404 (a run endpoint's own handler answers
 * {@code /loopget/}, {@link RunEndpointMappings}); hidden from the API description.
 */
@Hidden
@RestController
class MissingSegmentsController {

	@GetMapping({ "/compare", "/compare/", "/sweep", "/sweep/" })
	void operation() {
		throw new InvalidParameterException("op", "must be given in the path, e.g. /compare/set/10000");
	}

	@GetMapping({ "/compare/{op}", "/compare/{op}/", "/sweep/{op}", "/sweep/{op}/" })
	void count(@PathVariable String op) {
		// A wrong operation is the first thing to fix.
		RunRequests.operation(op);
		throw new InvalidParameterException("count", "must be given in the path, e.g. /compare/" + op + "/10000");
	}

}
