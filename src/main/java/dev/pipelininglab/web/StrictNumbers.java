package dev.pipelininglab.web;

import java.util.regex.Pattern;

import org.springframework.beans.propertyeditors.CustomNumberEditor;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Numbers in paths and query parameters are plain decimals. Spring's default conversion
 * also reads hexadecimal ({@code /pipeset/0x10} would run 16 commands, {@code rtt=0x1p3}
 * would add 8 ms), which nobody means in a URL; here anything but digits, an optional
 * minus and, for milliseconds, a decimal point is a 400 naming the parameter, like any
 * other malformed number.
 */
@ControllerAdvice(basePackages = "dev.pipelininglab")
class StrictNumbers {

	private static final Pattern WHOLE = Pattern.compile("-?[0-9]+");

	private static final Pattern DECIMAL = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");

	@InitBinder
	void decimalOnly(WebDataBinder binder) {
		binder.registerCustomEditor(long.class, new Decimal(Long.class, WHOLE, false));
		binder.registerCustomEditor(Long.class, new Decimal(Long.class, WHOLE, true));
		binder.registerCustomEditor(int.class, new Decimal(Integer.class, WHOLE, false));
		binder.registerCustomEditor(Integer.class, new Decimal(Integer.class, WHOLE, true));
		binder.registerCustomEditor(double.class, new Decimal(Double.class, DECIMAL, false));
		binder.registerCustomEditor(Double.class, new Decimal(Double.class, DECIMAL, true));
	}

	private static final class Decimal extends CustomNumberEditor {

		private final Pattern form;

		private final boolean allowEmpty;

		Decimal(Class<? extends Number> type, Pattern form, boolean allowEmpty) {
			super(type, allowEmpty);
			this.form = form;
			this.allowEmpty = allowEmpty;
		}

		@Override
		public void setAsText(String text) {
			boolean empty = text == null || text.isEmpty();
			if (!(empty && this.allowEmpty) && (empty || !this.form.matcher(text).matches())) {
				// Becomes a type mismatch, which the problem handlers answer as a 400
				// naming the parameter.
				throw new IllegalArgumentException("not a plain decimal number: '" + text + "'");
			}
			super.setAsText(text);
		}

	}

}
