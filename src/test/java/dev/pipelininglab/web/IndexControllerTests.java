package dev.pipelininglab.web;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;

import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.forwardedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code GET /}, without Redis: JSON clients get the endpoints and the parameters with
 * the bounds this instance is configured with, a browser gets the page.
 */
@WebMvcTest(controllers = IndexController.class)
class IndexControllerTests extends WebLayerWithStandIns {

	/** The test configuration's {@code lab.limits}, not the catalogue's literals. */
	@Autowired
	LabSettings lab;

	@Test
	void indexListsTheEndpointsAsJson() throws Exception {
		this.mvc.perform(get("/").accept(MediaType.APPLICATION_JSON))
			.andExpect(status().isOk())
			.andExpect(content().contentType(MediaType.APPLICATION_JSON))
			.andExpect(jsonPath("$.topology.kind").value("standalone"))
			.andExpect(jsonPath("$.endpoints[?(@.path == '/pipeset/{count}')].example").value("/pipeset/10000"))
			.andExpect(jsonPath("$.endpoints[?(@.path == '/pipeset/{count}')].admitted").value(true))
			.andExpect(jsonPath("$.endpoints[?(@.method == 'GET' && @.path == '/runs/{id}')].admitted").value(false))
			.andExpect(jsonPath("$.endpoints[*].path", hasItem("/compare/{op}/{count}")));
		verifyNoInteractions(this.runs, this.cleaner);
	}

	@Test
	void eachParameterCarriesTheBoundsThisInstanceIsConfiguredWith() throws Exception {
		this.mvc.perform(get("/").accept(MediaType.APPLICATION_JSON))
			.andExpect(jsonPath("$.parameters", hasSize(ApiParameter.values().length)))
			.andExpect(
					jsonPath("$.parameters[?(@.name == 'batchSize')].maximum").value(this.lab.limits().maxBatchSize()))
			.andExpect(jsonPath("$.parameters[?(@.name == 'batchSize')].default")
				.value(this.lab.limits().defaultBatchSize()))
			.andExpect(jsonPath("$.parameters[?(@.name == 'batchSize')].in").value("query"))
			.andExpect(jsonPath("$.parameters[?(@.name == 'count')].in").value("path"));
	}

	@Test
	void indexServesThePageToBrowsers() throws Exception {
		this.mvc.perform(get("/").accept(MediaType.TEXT_HTML))
			.andExpect(status().isOk())
			.andExpect(forwardedUrl("/index.html"));
	}

}
