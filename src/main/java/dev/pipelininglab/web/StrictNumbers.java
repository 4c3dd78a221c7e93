package dev.pipelininglab.web;

import java.beans.PropertyEditorSupport;
import java.util.function.Function;

import dev.pipelininglab.PlainNumbers;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Numbers in paths and query parameters are read by {@link PlainNumbers}, as every other
 * number the lab reads. Spring's default conversion also reads hexadecimal
 * ({@code /pipeset/0x10} would run 16 commands), a plus sign and non-ASCII digits; here
 * any of those is a 400 naming the parameter, like any other malformed number.
 */
@ControllerAdvice(basePackages = "dev.pipelininglab")
class StrictNumbers {

	@InitBinder
	void decimalOnly(WebDataBinder binder) {
		binder.registerCustomEditor(long.class, new Decimal(PlainNumbers::parseLong, false));
		binder.registerCustomEditor(Long.class, new Decimal(PlainNumbers::parseLong, true));
		binder.registerCustomEditor(int.class, new Decimal(PlainNumbers::parseInt, false));
		binder.registerCustomEditor(Integer.class, new Decimal(PlainNumbers::parseInt, true));
		binder.registerCustomEditor(double.class, new Decimal(PlainNumbers::parseDouble, false));
		binder.registerCustomEditor(Double.class, new Decimal(PlainNumbers::parseDouble, true));
	}

	private static final class Decimal extends PropertyEditorSupport {

		private final Function<String, Number> parser;

		private final boolean allowEmpty;

		Decimal(Function<String, Number> parser, boolean allowEmpty) {
			this.parser = parser;
			this.allowEmpty = allowEmpty;
		}

		@Override
		public void setAsText(String text) {
			if (this.allowEmpty && (text == null || text.isEmpty())) {
				setValue(null);
				return;
			}
			// A NumberFormatException becomes a type mismatch, which the problem handlers
			// answer as a 400 naming the parameter.
			setValue(this.parser.apply(text));
		}

	}

}
