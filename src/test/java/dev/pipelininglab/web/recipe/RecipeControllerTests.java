package dev.pipelininglab.web.recipe;

import dev.pipelininglab.web.WebLayerWithStandIns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code GET /recipes/{variant}}, without Redis: JSON with the batch size filled in, the
 * Java file for {@code text/plain}, Markdown for {@code text/markdown}, and a problem for
 * an unknown variant, a batch size out of bounds or a variant that runs nowhere. That
 * each recipe compiles and runs on a real Redis: {@code RecipeTests}.
 */
@WebMvcTest(controllers = RecipeController.class)
@Import(Recipes.class)
class RecipeControllerTests extends WebLayerWithStandIns {

	@AfterEach
	void nothingRan() {
		verifyNoInteractions(this.runs, this.cleaner);
		// (RunExecutor is a lifecycle bean, so the context itself talks to the stand-in.)
		verify(this.jobs, never()).run(any(), any());
	}

	@Test
	void jsonFillsInTheBatchSizeAsked() throws Exception {
		this.mvc.perform(get("/recipes/pipelined-flush-on-close?batchSize=250").accept(MediaType.APPLICATION_JSON))
			.andExpect(status().isOk())
			.andExpect(content().contentType(MediaType.APPLICATION_JSON))
			.andExpect(jsonPath("$.variant").value("pipelined-flush-on-close"))
			.andExpect(jsonPath("$.batchSize").value(250))
			.andExpect(jsonPath("$.flushPolicy").value("flush-on-close"))
			.andExpect(jsonPath("$.source", containsString("static final int BATCH_SIZE = 250;")));
	}

	@Test
	void textPlainIsTheJavaFileAndMarkdownWrapsItInAFence() throws Exception {
		this.mvc.perform(get("/recipes/loop").accept(MediaType.TEXT_PLAIN))
			.andExpect(status().isOk())
			.andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_PLAIN))
			.andExpect(content().string(containsString("public class LoopRecipe")));
		this.mvc.perform(get("/recipes/loop").accept(MediaType.TEXT_MARKDOWN))
			.andExpect(status().isOk())
			.andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_MARKDOWN))
			.andExpect(content().string(startsWith("**loop**")))
			.andExpect(content().string(containsString("```java\n")));
	}

	@Test
	void anUnknownVariantOrABatchSizeOutOfBoundsIsA400NamingIt() throws Exception {
		this.mvc.perform(get("/recipes/pipe"))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.parameter").value("variant"));
		this.mvc.perform(get("/recipes/loop?batchSize=0"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("batchSize"));
	}

	@Test
	void aVariantThatRunsOnNoTopologyIsA404() throws Exception {
		this.mvc.perform(get("/recipes/jedis-async"))
			.andExpect(status().isNotFound())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:recipe-not-found"));
	}

}
