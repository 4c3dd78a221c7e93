package dev.pipelininglab.web;

import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The run endpoints with a path segment left out ({@code /pipeset/},
 * {@code /compare/set}): a 400 that names the missing parameter and shows the right form,
 * rather than a bare 404. Never touches Redis.
 */
// Not part of the API description: these paths exist only to answer a helpful 400 for a
// malformed URL.
@Hidden
@RestController
class MissingSegments {

	@GetMapping({ "/pipeset", "/pipeset/", "/pipeget", "/pipeget/", "/piperpop", "/piperpop/", "/pipeping",
			"/pipeping/", "/loopset", "/loopset/", "/loopget", "/loopget/", "/looprpop", "/looprpop/", "/loopping",
			"/loopping/", "/listinput", "/listinput/", "/pipeincr", "/pipeincr/", "/pipehset", "/pipehset/",
			"/pipesadd", "/pipesadd/", "/pipezadd", "/pipezadd/", "/pipelpush", "/pipelpush/", "/loopincr",
			"/loopincr/", "/loophset", "/loophset/", "/loopsadd", "/loopsadd/", "/loopzadd", "/loopzadd/", "/looplpush",
			"/looplpush/", "/pipemixed", "/pipemixed/", "/loopmixed", "/loopmixed/" })
	void count() {
		throw new InvalidParameterException("count", "must be given in the path, e.g. /pipeset/10000");
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
