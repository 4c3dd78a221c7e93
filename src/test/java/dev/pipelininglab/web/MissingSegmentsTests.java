package dev.pipelininglab.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;

import static org.hamcrest.Matchers.containsString;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A {@code /compare} or {@code /sweep} path cut short is a 400 naming the missing segment
 * with an example to copy, not a bare 404; a wrong operation is named first, since it is
 * the first thing to fix.
 */
@WebMvcTest(controllers = RunController.class)
class MissingSegmentsTests extends WebLayerWithStandIns {

	@AfterEach
	void nothingRan() {
		verifyNoInteractions(this.runs, this.cleaner);
		// (RunExecutor is a lifecycle bean, so the context itself talks to the stand-in.)
		verify(this.jobs, never()).run(any(), any());
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			/compare      | op    | must be given in the path, e.g. /compare/set/10000
			/sweep/       | op    | must be given in the path, e.g. /compare/set/10000
			/compare/get  | count | must be given in the path, e.g. /compare/get/10000
			/sweep/set/   | count | must be given in the path, e.g. /compare/set/10000
			/sweep/flush  | op    | op must be one of set, get
			""")
	void aMissingSegmentIsA400NamingIt(String path, String parameter, String detail) throws Exception {
		this.mvc.perform(get(path))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:invalid-parameter"))
			.andExpect(jsonPath("$.parameter").value(parameter))
			.andExpect(jsonPath("$.detail", containsString(detail)));
	}

}
