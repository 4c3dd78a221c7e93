package dev.pipelininglab.web.guard;

import java.beans.PropertyEditorSupport;
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
class StrictNumbers {

	@InitBinder
	void decimalOnly(WebDataBinder binder) {
		binder.registerCustomEditor(long.class, new Decimal(PlainNumbers::parseLong));
		binder.registerCustomEditor(Long.class, new Decimal(PlainNumbers::parseLong));
		binder.registerCustomEditor(int.class, new Decimal(PlainNumbers::parseInt));
		binder.registerCustomEditor(Integer.class, new Decimal(PlainNumbers::parseInt));
		binder.registerCustomEditor(double.class, new Decimal(PlainNumbers::parseDouble));
		binder.registerCustomEditor(Double.class, new Decimal(PlainNumbers::parseDouble));
	}

	private static final class Decimal extends PropertyEditorSupport {

		private final Function<String, Number> parser;

		Decimal(Function<String, Number> parser) {
			this.parser = parser;
		}

		/** An empty value ({@code duration=}) is malformed, not absent. */
		@Override
		public void setAsText(String text) {
			setValue(this.parser.apply(text));
		}

	}

}
