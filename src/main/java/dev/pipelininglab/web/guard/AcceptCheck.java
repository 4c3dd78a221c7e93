package dev.pipelininglab.web.guard;

import java.io.IOException;
import java.util.Collections;
import java.util.List;

import dev.pipelininglab.web.RunSlotsConfiguration;
import dev.pipelininglab.web.problem.Problems;
import dev.pipelininglab.web.text.ResultTextConverter;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Refuses an {@code Accept} no answer format satisfies before the run: Spring MVC decides
 * only when it writes the answer, after the keys were written.
 */
public class AcceptCheck implements HandlerInterceptor {

	/** After the parameter check: a misspelt parameter is the first thing to fix. */
	@Configuration(proxyBeanMethods = false)
	static class Registration implements WebMvcConfigurer {

		@Override
		public void addInterceptors(InterceptorRegistry registry) {
			registry.addInterceptor(new AcceptCheck()).addPathPatterns(RunSlotsConfiguration.GATED);
		}

	}

	/** A run's page for a browser, a table for a terminal; problems are JSON whatever. */
	private static final List<MediaType> RESULTS = List.of(MediaType.APPLICATION_JSON, ResultTextConverter.TEXT,
			ResultTextConverter.CSV, ResultTextConverter.MARKDOWN, ResultTextConverter.HTML);

	private static final List<MediaType> JSON_ONLY = List.of(MediaType.APPLICATION_JSON);

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
			throws HttpMediaTypeNotAcceptableException, IOException {
		List<MediaType> producible = "GET".equals(request.getMethod()) ? RESULTS : JSON_ONLY;
		List<MediaType> accepted;
		try {
			accepted = MediaType.parseMediaTypes(Collections.list(request.getHeaders(HttpHeaders.ACCEPT)));
		}
		catch (InvalidMediaTypeException ex) {
			// Written here: Spring MVC would fail on the same Accept and send no body.
			Problems.write(request, response, ProblemDetail.forStatusAndDetail(HttpStatus.NOT_ACCEPTABLE,
					"Accept cannot be read; ask for one of " + producible + " or leave Accept out."));
			return false;
		}
		if (accepted.isEmpty() || accepted.stream()
			.anyMatch((type) -> type.getQualityValue() > 0 && producible.stream().anyMatch(type::isCompatibleWith))) {
			return true;
		}
		throw new HttpMediaTypeNotAcceptableException(producible);
	}

}
