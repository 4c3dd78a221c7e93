package dev.pipelininglab.web;

import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Run endpoints missing a path segment ({@code /loopget/}, {@code /compare/set}): a 400
 * naming it rather than a bare 404; hidden from the API description.
 */
@Hidden
@RestController
class MissingSegments {

	/** Every run endpoint without its count, mapped by {@link RunEndpointMappings}. */
	void count() {
		throw new InvalidParameterException("count",
				"must be given in the path, e.g. " + RunEndpoint.of(Operation.SET, Mode.PIPELINED).example());
	}

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
