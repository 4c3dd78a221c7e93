package dev.pipelininglab.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test whose tool is missing reports itself skipped with the reason. An assumption that
 * fails in {@code @BeforeAll} aborts the whole class, and Surefire then counts its tests
 * neither as run nor as skipped (with chromium present and chromedriver missing, the
 * browser tests vanished from the report); nor may a class-level condition hide them.
 * Assumptions belong in {@code @BeforeEach} or in the test.
 */
class NoSilentSkipTests {

	/** A {@code @BeforeAll} method, up to the end of its body (tab-indented sources). */
	private static final Pattern BEFORE_ALL = Pattern.compile("@BeforeAll\\s*\\n(.*?)\\n\\t}\\n", Pattern.DOTALL);

	private static final Pattern CLASS_CONDITION = Pattern
		.compile("^@(EnabledIf|DisabledIf)(EnvironmentVariable|SystemProperty)?\\b.*$", Pattern.MULTILINE);

	@Test
	void noAssumptionOrConditionHidesAWholeTestClass() throws IOException {
		List<String> hits = new ArrayList<>();
		try (Stream<Path> sources = Files.walk(Path.of("src", "test", "java"))) {
			for (Path source : sources.filter((path) -> path.toString().endsWith(".java")).toList()) {
				String text = Files.readString(source);
				Matcher beforeAll = BEFORE_ALL.matcher(text);
				while (beforeAll.find()) {
					if (beforeAll.group(1).matches("(?s).*\\bassume(True|False|That)\\s*\\(.*")) {
						hits.add(source + ": an assumption in @BeforeAll");
					}
				}
				Matcher condition = CLASS_CONDITION.matcher(text);
				while (condition.find()) {
					hits.add(source + ": class-level " + condition.group());
				}
			}
		}
		assertThat(hits).isEmpty();
	}

}
