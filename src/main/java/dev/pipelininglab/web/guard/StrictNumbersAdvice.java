package dev.pipelininglab.web.guard;

import java.beans.PropertyEditorSupport;
import java.util.Map;
import java.util.function.Function;

import dev.pipelininglab.PlainNumbers;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Path and query numbers read by {@link PlainNumbers}: Spring's conversion also takes
 * hexadecimal ({@code /pipeget/0x10}), a plus sign and non-ASCII digits.
 */
@ControllerAdvice(basePackages = "dev.pipelininglab")
class StrictNumbersAdvice {

	@InitBinder
	void decimalOnly(WebDataBinder binder) {
		Map.<Class<?>, Function<String, Number>>of(long.class, PlainNumbers::parseLong, Long.class,
				PlainNumbers::parseLong, int.class, PlainNumbers::parseInt, Integer.class, PlainNumbers::parseInt,
				double.class, PlainNumbers::parseDouble, Double.class, PlainNumbers::parseDouble)
			.forEach((type, parser) -> binder.registerCustomEditor(type, new PropertyEditorSupport() {

				/** An empty value ({@code duration=}) is malformed, not absent. */
				@Override
				public void setAsText(String text) {
					setValue(parser.apply(text));
				}

			}));
	}

}
