package dev.pipelininglab.web.text;

import java.util.List;

import dev.pipelininglab.web.recipe.RecipeTextConverter;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * {@code Accept: text/plain}, {@code text/csv} or {@code text/markdown} on any run,
 * comparison or sweep endpoint answers a table. Added after the default converters, so a
 * client that accepts anything still gets JSON.
 */
@Configuration(proxyBeanMethods = false)
class TextAnswers implements WebMvcConfigurer {

	@Override
	public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
		converters.add(new ResultTextConverter());
		converters.add(new RecipeTextConverter());
	}

}
