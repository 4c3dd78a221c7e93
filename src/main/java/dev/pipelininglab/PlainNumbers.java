package dev.pipelininglab;

import java.util.regex.Pattern;

/**
 * The one way the lab reads a number written by a person: in a path, a query parameter, a
 * flush policy such as {@code buffered-<n>} or an entry of a comma-separated list. Only
 * ASCII decimal digits, an optional leading minus (so an out-of-range value can be named
 * in the answer) and, for fractions, one decimal point. {@link Long#parseLong} alone also
 * takes a plus sign and digits of any script ({@code ١٠} is 10), and Spring's conversion
 * reads hexadecimal; nobody means those in a URL.
 */
public final class PlainNumbers {

	private static final Pattern WHOLE = Pattern.compile("-?[0-9]+");

	private static final Pattern DECIMAL = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");

	private PlainNumbers() {
	}

	/**
	 * @throws NumberFormatException when the text is not a plain whole number or does not
	 * fit a {@code long}
	 */
	public static long parseLong(String text) {
		return Long.parseLong(checked(WHOLE, text));
	}

	/**
	 * @throws NumberFormatException when the text is not a plain whole number or does not
	 * fit an {@code int}
	 */
	public static int parseInt(String text) {
		return Integer.parseInt(checked(WHOLE, text));
	}

	/**
	 * @throws NumberFormatException when the text is not a plain decimal number
	 */
	public static double parseDouble(String text) {
		return Double.parseDouble(checked(DECIMAL, text));
	}

	private static String checked(Pattern form, String text) {
		if (text == null || !form.matcher(text).matches()) {
			throw new NumberFormatException("not a plain decimal number: '" + text + "'");
		}
		return text;
	}

}
