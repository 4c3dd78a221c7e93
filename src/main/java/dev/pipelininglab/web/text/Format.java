package dev.pipelininglab.web.text;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * How a table shows a figure to people ({@link #shown}) and writes it for machines
 * ({@link #raw}).
 */
enum Format {

	/** FIGURE: three significant digits, for figures far below 1 (0.00213). */
	TEXT, WHOLE, MILLIS, RATIO, FIGURE;

	String shown(@Nullable Object value) {
		if (value == null || this == TEXT) {
			return (value != null) ? value.toString() : "";
		}
		double number = ((Number) value).doubleValue();
		return switch (this) {
			case WHOLE -> String.format(Locale.ROOT, "%,d", Math.round(number));
			// What the clock and a shared machine's noise support.
			case MILLIS -> (number >= 100) ? String.format(Locale.ROOT, "%,.1f", number) : significant(number, 3);
			case RATIO -> significant(number, 3) + "x";
			case TEXT, FIGURE -> significant(number, 3);
		};
	}

	/** For machines: plain numbers, to the JSON answer's precision (16.806 ms). */
	String raw(@Nullable Object value) {
		if (!(value instanceof Double number)) {
			return (value != null) ? value.toString() : "";
		}
		return switch (this) {
			case TEXT -> value.toString();
			case WHOLE -> decimals(number, 1);
			case MILLIS -> decimals(number, 3);
			case RATIO -> significant(number, 3);
			case FIGURE -> (Math.abs(number) >= 0.1) ? decimals(number, 3) : significant(number, 4);
		};
	}

	private static String decimals(double value, int places) {
		if (!Double.isFinite(value)) {
			return Double.toString(value);
		}
		return new BigDecimal(value).setScale(places, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
	}

	static String significant(double value, int digits) {
		if (value == 0 || !Double.isFinite(value)) {
			return (value == 0) ? "0" : Double.toString(value);
		}
		return new BigDecimal(value).round(new MathContext(digits)).stripTrailingZeros().toPlainString();
	}

}
