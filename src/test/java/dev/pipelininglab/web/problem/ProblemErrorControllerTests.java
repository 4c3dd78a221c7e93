package dev.pipelininglab.web.problem;

import dev.pipelininglab.web.WebLayerWithStandIns;
import jakarta.servlet.RequestDispatcher;
import org.junit.jupiter.api.Test;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The error page as the container forwards to it (status and path as request attributes),
 * without Redis or Tomcat: a problem with the status it was given, the methods a path
 * takes for a 405, and nothing of a 5xx's cause.
 */
@WebMvcTest(controllers = ProblemErrorController.class)
@Import(ProblemErrorControllerTests.PostOnly.class)
class ProblemErrorControllerTests extends WebLayerWithStandIns {

	@Test
	void aNotFoundIsAProblemForThePathAsked() throws Exception {
		this.mvc.perform(error(404, "/nowhere"))
			.andExpect(status().isNotFound())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.status").value(404))
			.andExpect(jsonPath("$.detail").value("No such resource."))
			.andExpect(jsonPath("$.instance").value("/nowhere"));
	}

	@Test
	void aMethodNotAllowedNamesTheMethodsThePathTakes() throws Exception {
		this.mvc.perform(error(405, "/post-only"))
			.andExpect(status().isMethodNotAllowed())
			.andExpect(header().string("Allow", "POST"))
			.andExpect(jsonPath("$.detail").value("The request's method is not supported here; it takes POST."));
	}

	@Test
	void aServerErrorIsTheUnexpectedProblemWithNoCauseInIt() throws Exception {
		this.mvc.perform(error(500, "/post-only"))
			.andExpect(status().isInternalServerError())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:unexpected"))
			.andExpect(jsonPath("$.detail").value("The request could not be processed; the server log has details."));
	}

	@Test
	void aStatusThatIsNoErrorIsAnswered500NotPassedOn() throws Exception {
		this.mvc.perform(error(200, "/post-only")).andExpect(status().isInternalServerError());
	}

	private static MockHttpServletRequestBuilder error(int status, String path) {
		return get("/error").requestAttr(RequestDispatcher.ERROR_STATUS_CODE, status)
			.requestAttr(RequestDispatcher.ERROR_REQUEST_URI, path);
	}

	/** A path that takes POST only. */
	@RestController
	static class PostOnly {

		@PostMapping("/post-only")
		void post() {
		}

	}

}
