package dev.pipelininglab.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The main code never empties, lists or scripts a Redis beyond its prefix. The calls
 * (flushAll, keys with a pattern, eval, dispatch, a dangerous CommandType) are
 * {@code ArchitectureTests}' rules, on the compiled classes; this scan reads the source
 * for what only the source shows: a command spelt in a string literal (a raw
 * {@code execute}, a command array) or inside a Lua script. Comments may name them (to
 * say why they are not used); string literals may not.
 */
class MainCodeScanTests {

	private static final List<Pattern> FORBIDDEN = List.of(
			// Arbitrary commands: Spring Data Redis's execute(String command, ...).
			// A constant PING (run/PingCommand) is the one raw command main code sends.
			Pattern.compile("\\.execute\\s*\\(\\s*\"(?!PING\")"),
			// The commands themselves: a literal that is the command, a Lua call. (Lua's
			// KEYS[i] in the lab's scripts is the keys argument, not the command.) Upper
			// case, as commands are written; prose in messages ("Keys in different
			// slots...") is not a command.
			Pattern.compile("\"(FLUSHALL|FLUSHDB|KEYS|CONFIG|DEBUG|MONITOR|SHUTDOWN|EVAL)(\\s[^\"]*)?\""),
			Pattern.compile("redis\\.p?call\\s*\\(\\s*'(FLUSHALL|FLUSHDB|KEYS|CONFIG|DEBUG|SHUTDOWN)'",
					Pattern.CASE_INSENSITIVE));

	@Test
	void mainCodeSpellsNoFlushKeysOrArbitraryCommands() throws IOException {
		Path main = Paths.get("src", "main", "java");
		List<String> hits = new ArrayList<>();
		int files = 0;
		try (Stream<Path> sources = Files.walk(main)) {
			for (Path source : sources.filter((path) -> path.toString().endsWith(".java")).toList()) {
				files++;
				String code = withoutComments(Files.readString(source, StandardCharsets.UTF_8));
				for (Pattern pattern : FORBIDDEN) {
					pattern.matcher(code).results().forEach((match) -> hits.add(source + ": " + match.group()));
				}
			}
		}
		assertThat(files).isGreaterThan(30);
		assertThat(hits).isEmpty();
	}

	@Test
	void theScanRecognisesWhatItLooksFor() {
		for (String code : List.of("c.execute(\"FLUSHDB\")", "c.execute(\"CONFIG\", \"SET\")",
				"new String[] { \"KEYS\", \"*\" }", "\"FLUSHALL ASYNC\"", "\"redis.call('FLUSHDB')\"")) {
			String stripped = withoutComments(code);
			assertThat(FORBIDDEN.stream().anyMatch((pattern) -> pattern.matcher(stripped).find())).as(code).isTrue();
		}
		for (String code : List.of("c.execute(\"PING\")", "\"for i, key in ipairs(KEYS) do\"", "\" KEYS[1]) if not\"",
				"\"Keys in different slots\"")) {
			String stripped = withoutComments(code);
			assertThat(FORBIDDEN.stream().noneMatch((pattern) -> pattern.matcher(stripped).find())).as(code).isTrue();
		}
		assertThat(withoutComments(
				"// never FLUSHALL or keys(\"*\")\nint a = 1; /* flushAll() */ String url =" + " \"redis://host\";"))
			.doesNotContain("FLUSHALL", "flushAll", "keys(")
			.contains("redis://host");
	}

	/**
	 * Drops // and block comments, keeping string and character literals (which may
	 * contain "//").
	 */
	static String withoutComments(String source) {
		StringBuilder code = new StringBuilder(source.length());
		int i = 0;
		while (i < source.length()) {
			char c = source.charAt(i);
			char next = (i + 1 < source.length()) ? source.charAt(i + 1) : 0;
			if (c == '/' && next == '/') {
				while (i < source.length() && source.charAt(i) != '\n') {
					i++;
				}
			}
			else if (c == '/' && next == '*') {
				int end = source.indexOf("*/", i + 2);
				i = (end < 0) ? source.length() : end + 2;
			}
			else if (c == '"' || c == '\'') {
				int start = i++;
				while (i < source.length() && source.charAt(i) != c) {
					i += (source.charAt(i) == '\\') ? 2 : 1;
				}
				i = Math.min(source.length(), i + 1);
				code.append(source, start, i);
			}
			else {
				code.append(c);
				i++;
			}
		}
		return code.toString();
	}

}
