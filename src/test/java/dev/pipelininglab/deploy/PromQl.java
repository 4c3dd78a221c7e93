package dev.pipelininglab.deploy;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads: what is left of it once strings, label
 * matchers, ranges, grouping clauses, functions, keywords and numbers are taken out.
 */
final class PromQl {

	private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

	private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
			"bool", "and", "or", "unless", "offset", "inf", "nan");

	private PromQl() {
	}

	static Set<String> metricNames(String expression) {
		String rest = expression.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", " ")
			.replaceAll("\\{[^}]*}", " ")
			.replaceAll("\\[[^]]*]", " ")
			.replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
			.replaceAll("\\$[a-zA-Z_]+", " ");
		Set<String> names = new LinkedHashSet<>();
		Matcher identifier = IDENTIFIER.matcher(rest);
		while (identifier.find()) {
			String name = identifier.group();
			boolean function = rest.substring(identifier.end()).stripLeading().startsWith("(");
			boolean number = identifier.start() > 0 && Character.isDigit(rest.charAt(identifier.start() - 1));
			if (!function && !number && !KEYWORDS.contains(name.toLowerCase())) {
				names.add(name);
			}
		}
		return names;
	}

}
