package dev.pipelininglab.web;

import java.lang.reflect.Method;
import java.util.Objects;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.run.RunResult;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.factory.BeanRegistrar;
import org.springframework.beans.factory.BeanRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The catalogue's run endpoints ({@link RunEndpoint#ALL}), mapped through Spring MVC's
 * public {@code registerMapping}, as an annotation cannot hold paths made from the
 * operations. Each endpoint has a handler bean of its own ({@code pipesetEndpoint}, ...)
 * that knows its operation and mode, so nothing asks Spring MVC which pattern matched,
 * and springdoc lists them by bean name as any controller; {@code /pipeset} and
 * {@code /pipeset/} go to the same handler. The parameter check reads these mappings, so
 * it is registered here too.
 */
@Configuration(proxyBeanMethods = false)
@Import(RunEndpointMappings.Handlers.class)
class RunEndpointMappings implements WebMvcConfigurer, SmartInitializingSingleton {

	private static final Method RUN = Objects.requireNonNull(
			ReflectionUtils.findMethod(Handler.class, "run", long.class, RunParams.class, HttpServletRequest.class));

	private static final Method NO_COUNT = Objects.requireNonNull(ReflectionUtils.findMethod(Handler.class, "noCount"));

	private final ObjectProvider<RequestMappingHandlerMapping> mapping;

	private final ObjectProvider<RunController> runs;

	RunEndpointMappings(@Qualifier("requestMappingHandlerMapping") ObjectProvider<RequestMappingHandlerMapping> mapping,
			ObjectProvider<RunController> runs) {
		this.mapping = mapping;
		this.runs = runs;
	}

	/** Once every handler is there, before the server takes a request. */
	@Override
	public void afterSingletonsInstantiated() {
		RequestMappingHandlerMapping mapping = this.mapping.getIfAvailable();
		// None without a web server, none in a web slice test without RunController.
		if (mapping == null || this.runs.getIfAvailable() == null) {
			return;
		}
		for (RunEndpoint endpoint : RunEndpoint.ALL) {
			String handler = Handlers.beanName(endpoint);
			mapping.registerMapping(get(mapping, endpoint.path()), handler, RUN);
			mapping.registerMapping(get(mapping, "/" + endpoint.name(), "/" + endpoint.name() + "/"), handler,
					NO_COUNT);
		}
	}

	private static RequestMappingInfo get(RequestMappingHandlerMapping mapping, String... paths) {
		return RequestMappingInfo.paths(paths)
			.methods(RequestMethod.GET)
			.options(mapping.getBuilderConfiguration())
			.build();
	}

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		// First, so a misspelt parameter is answered at once.
		registry.addInterceptor(new ParameterCheck(this.mapping::getObject)).order(Ordered.HIGHEST_PRECEDENCE);
	}

	/**
	 * One run endpoint's handler. Not a {@code @Controller}, so neither scanned nor
	 * mapped by annotation; {@code @RequestMapping} is how springdoc tells a controller
	 * bean.
	 */
	@RequestMapping
	@ResponseBody
	record Handler(RunEndpoint endpoint, RunController runs) {

		@ApiResponse(responseCode = "200", description = RunController.DONE)
		@ApiProblems(ProblemType.REDIS_ERROR_REPLY)
		ResponseEntity<RunResult> run(@PathVariable long count, RunParams params, HttpServletRequest request) {
			return this.runs.single(this.endpoint, count, params, request);
		}

		/** A 400 naming the count rather than a bare 404. */
		@Hidden
		void noCount() {
			throw new InvalidParameterException("count", "must be given in the path, e.g. " + this.endpoint.example());
		}

	}

	/** A handler bean per run endpoint, made on first use. */
	static final class Handlers implements BeanRegistrar {

		@Override
		public void register(BeanRegistry registry, Environment environment) {
			RunEndpoint.ALL.forEach(
					(endpoint) -> registry.registerBean(beanName(endpoint), Handler.class, (bean) -> bean.lazyInit()
						.supplier((context) -> new Handler(endpoint, context.bean(RunController.class)))));
		}

		static String beanName(RunEndpoint endpoint) {
			return endpoint.name() + "Endpoint";
		}

	}

}
