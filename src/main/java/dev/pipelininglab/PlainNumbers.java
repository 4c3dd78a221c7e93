package dev.pipelininglab;

import java.util.regex.Pattern;

/**
 * The one way the lab reads a number a person wrote: ASCII digits only, unlike
 * {@link Long#parseLong} (a plus sign, other scripts) and Spring (hexadecimal).
 */
public final class PlainNumbers {

	private static final Pattern WHOLE = Pattern.compile("-?[0-9]+");

	private static final Pattern DECIMAL = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");

	private PlainNumbers() {
	}

	public static long parseLong(String text) {
		return Long.parseLong(checked(WHOLE, text));
	}

	public static int parseInt(String text) {
		return Integer.parseInt(checked(WHOLE, text));
	}

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
