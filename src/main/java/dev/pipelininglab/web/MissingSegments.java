package dev.pipelininglab.web;

import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The run endpoints with a path segment left out ({@code /loopget/},
 * {@code /compare/set}): a 400 that names the missing parameter and shows the right form,
 * rather than a bare 404. Never touches Redis.
 */
// Not part of the API description: these paths exist only to answer a helpful 400 for a
// malformed URL.
@Hidden
@RestController
class MissingSegments {

	@RunEndpoint.Mapped({ "", "/" })
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
		// A wrong operation is the first thing to fix, so it is named first.
		RunRequests.operation(op);
		throw new InvalidParameterException("count", "must be given in the path, e.g. /compare/" + op + "/10000");
	}

}
