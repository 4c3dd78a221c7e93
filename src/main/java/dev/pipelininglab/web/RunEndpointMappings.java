package dev.pipelininglab.web;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.webmvc.autoconfigure.WebMvcRegistrations;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Maps a method marked {@link RunEndpoint.Mapped} to the paths of the run endpoint
 * catalogue. An annotation's paths must be constants; these come from the operations, and
 * each stays a pattern of its own, so Spring MVC matches, reports (the pattern the
 * parameter check and the API description read) and 404s unknown names as for any
 * {@code @GetMapping}. Boot takes a {@code WebMvcRegistrations} only while it is the only
 * one: a second would leave the run endpoints unmapped, and every endpoint test fail.
 */
@Component
class RunEndpointMappings implements WebMvcRegistrations {

	@Override
	public RequestMappingHandlerMapping getRequestMappingHandlerMapping() {
		return new CatalogueMapping();
	}

	/** Spring MVC's own mapping, with the catalogue's paths for marked methods. */
	static final class CatalogueMapping extends RequestMappingHandlerMapping {

		@Override
		protected @Nullable RequestMappingInfo getMappingForMethod(Method method, Class<?> handlerType) {
			RunEndpoint.Mapped mapped = AnnotatedElementUtils.findMergedAnnotation(method, RunEndpoint.Mapped.class);
			if (mapped == null) {
				return super.getMappingForMethod(method, handlerType);
			}
			return RequestMappingInfo.paths(RunEndpoint.paths(mapped))
				.methods(RequestMethod.GET)
				.options(getBuilderConfiguration())
				.build();
		}

	}

}
