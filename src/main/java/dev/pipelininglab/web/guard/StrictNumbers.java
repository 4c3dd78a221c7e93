package dev.pipelininglab.web.guard;

import java.beans.PropertyEditorSupport;
import java.util.function.Function;

import dev.pipelininglab.PlainNumbers;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Numbers in paths and query parameters are read by {@link PlainNumbers}, as every other
 * number the lab reads. Spring's default conversion also reads hexadecimal
 * ({@code /pipeget/0x10} would run 16 commands), a plus sign and non-ASCII digits; here
 * any of those is a 400 naming the parameter, like any other malformed number.
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

		/**
		 * An empty value ({@code duration=}) is malformed, not absent: a parameter left
		 * out is simply not given. A NumberFormatException becomes a type mismatch, which
		 * the problem handlers answer as a 400 naming the parameter.
		 */
		@Override
		public void setAsText(String text) {
			setValue(this.parser.apply(text));
		}

	}

}
