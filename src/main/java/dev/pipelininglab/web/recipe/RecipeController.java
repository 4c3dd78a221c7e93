package dev.pipelininglab.web.recipe;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;
import dev.pipelininglab.run.Variant;
import dev.pipelininglab.web.ApiParameter;
import dev.pipelininglab.web.ApiProblems;
import dev.pipelininglab.web.InvalidParameterException;
import dev.pipelininglab.web.LabSettings;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /recipes/{variant}}: a variant's code as JSON or, for text, the Java file.
 */
@RestController
public class RecipeController {

	private final Recipes recipes;

	private final LabSettings settings;

	RecipeController(Recipes recipes, LabSettings settings) {
		this.recipes = recipes;
		this.settings = settings;
	}

	@ApiResponse(responseCode = "200",
			description = "The recipe: JSON with its cost, catch and source, or the Java source alone for Accept: text/plain")
	@ApiProblems(redis = false)
	@GetMapping("/recipes/{variant}")
	Recipes.Recipe recipe(@PathVariable String variant, @RequestParam(required = false) @Nullable Integer batchSize) {
		Variant parsed;
		try {
			parsed = Variant.valueOf(variant);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidParameterException("variant", "must name a known variant: " + ex.getMessage());
		}
		int size = (int) ApiParameter.BATCH_SIZE.check(this.settings, batchSize);
		String nowhere = parsed.runsNowhere();
		if (nowhere != null) {
			throw new ProblemException(ProblemType.RECIPE_NOT_FOUND, ProblemType.RECIPE_NOT_FOUND.detail(nowhere));
		}
		return this.recipes.recipe(parsed, size);
	}

}
