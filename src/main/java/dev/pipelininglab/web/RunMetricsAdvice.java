package dev.pipelininglab.web;

import dev.pipelininglab.metrics.RunMetrics;
import dev.pipelininglab.run.Comparison;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.Sweep;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Times the runs of the GET endpoints from the results they answer with, so the
 * controllers stay as they are and every endpoint that returns a result is counted,
 * present or future. Jobs record their own results.
 */
@RestControllerAdvice
class RunMetricsAdvice implements ResponseBodyAdvice<Object> {

	/**
	 * A provider, because MVC test slices load controller advice without the metrics
	 * infrastructure.
	 */
	private final ObjectProvider<RunMetrics> metrics;

	RunMetricsAdvice(ObjectProvider<RunMetrics> metrics) {
		this.metrics = metrics;
	}

	@Override
	public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
		Class<?> type = returnType.getParameterType();
		return RunResult.class.isAssignableFrom(type) || Comparison.class.isAssignableFrom(type)
				|| Sweep.class.isAssignableFrom(type);
	}

	@Override
	public @Nullable Object beforeBodyWrite(@Nullable Object body, MethodParameter returnType,
			MediaType selectedContentType, Class<? extends HttpMessageConverter<?>> selectedConverterType,
			ServerHttpRequest request, ServerHttpResponse response) {
		RunMetrics recorder = this.metrics.getIfAvailable();
		if (recorder != null) {
			if (body instanceof RunResult result) {
				recorder.record(result);
			}
			else if (body instanceof Comparison comparison) {
				recorder.record(comparison.results());
			}
			else if (body instanceof Sweep sweep) {
				recorder.record(sweep.results());
			}
		}
		return body;
	}

}
