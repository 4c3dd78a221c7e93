package dev.pipelininglab.web.recipe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;

/**
 * A recipe as the Java file alone, or as Markdown with its cost and catch; after Jackson.
 */
public final class RecipeTextConverter extends AbstractHttpMessageConverter<Recipes.Recipe> {

	public RecipeTextConverter() {
		super(StandardCharsets.UTF_8, new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8),
				new MediaType(MediaType.TEXT_MARKDOWN, StandardCharsets.UTF_8));
	}

	@Override
	protected boolean supports(Class<?> clazz) {
		return Recipes.Recipe.class.isAssignableFrom(clazz);
	}

	@Override
	protected Recipes.Recipe readInternal(Class<? extends Recipes.Recipe> clazz, HttpInputMessage input) {
		throw new HttpMessageNotReadableException("Recipes are written, not read", input);
	}

	@Override
	protected void writeInternal(Recipes.Recipe recipe, HttpOutputMessage output) throws IOException {
		MediaType type = output.getHeaders().getContentType();
		String text = (type != null && type.getSubtype().equals("markdown"))
				? "**" + recipe.variant() + "** (`" + recipe.path() + "`)\n\nCost: " + recipe.cost() + "\n\nCatch: "
						+ recipe.catchText() + "\n\n```java\n" + recipe.source() + "```\n"
				: recipe.source();
		output.getBody().write(text.getBytes(StandardCharsets.UTF_8));
	}

}
