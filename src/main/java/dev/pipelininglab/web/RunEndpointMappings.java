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
 * Maps {@link RunEndpoint.Mapped} methods to the catalogue's paths, which an annotation
 * cannot hold as constants; Boot takes a {@code WebMvcRegistrations} only while it is the
 * only one.
 */
@Component
class RunEndpointMappings implements WebMvcRegistrations {

	@Override
	public RequestMappingHandlerMapping getRequestMappingHandlerMapping() {
		return new CatalogueMapping();
	}

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
