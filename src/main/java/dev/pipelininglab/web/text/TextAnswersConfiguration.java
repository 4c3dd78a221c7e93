package dev.pipelininglab.web.text;

import java.util.List;

import dev.pipelininglab.web.recipe.RecipeTextConverter;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Text, CSV, Markdown and a browser's page, after the default converters so JSON stays
 * the default.
 */
@Configuration(proxyBeanMethods = false)
class TextAnswersConfiguration implements WebMvcConfigurer {

	@Override
	public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
		converters.add(new ResultTextConverter());
		converters.add(new RecipeTextConverter());
	}

}
