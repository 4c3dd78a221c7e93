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
		if (value == null) {
			return "";
		}
		return switch (this) {
			case TEXT -> value.toString();
			case WHOLE -> String.format(Locale.ROOT, "%,d", Math.round(((Number) value).doubleValue()));
			case MILLIS -> millis(((Number) value).doubleValue());
			case RATIO -> significant(((Number) value).doubleValue(), 3) + "x";
			case FIGURE -> significant(((Number) value).doubleValue(), 3);
		};
	}

	/** For machines: plain numbers, to the JSON answer's precision (16.806 ms). */
	String raw(@Nullable Object value) {
		if (value == null) {
			return "";
		}
		if (!(value instanceof Double)) {
			return value.toString();
		}
		return switch (this) {
			case TEXT -> value.toString();
			case WHOLE -> decimals((Double) value, 1);
			case MILLIS -> decimals((Double) value, 3);
			case RATIO -> significant((Double) value, 3);
			case FIGURE ->
				(Math.abs((Double) value) >= 0.1) ? decimals((Double) value, 3) : significant((Double) value, 4);
		};
	}

	private static String decimals(double value, int places) {
		if (!Double.isFinite(value)) {
			return Double.toString(value);
		}
		return new BigDecimal(value).setScale(places, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
	}

	private static String millis(double value) {
		// What the clock and a shared machine's noise support.
		if (value >= 100) {
			return String.format(Locale.ROOT, "%,.1f", value);
		}
		return significant(value, 3);
	}

	static String significant(double value, int digits) {
		if (value == 0 || !Double.isFinite(value)) {
			return (value == 0) ? "0" : Double.toString(value);
		}
		return new BigDecimal(value).round(new MathContext(digits)).stripTrailingZeros().toPlainString();
	}

}
