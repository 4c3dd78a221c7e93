package dev.pipelininglab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every top-level main class opens with a javadoc saying its job. Javadoc is not in the
 * compiled classes {@link ArchitectureTests} reads, so this test reads the source.
 */
class ClassJavadocTests {

	/** The top-level type: its declaration starts a line, unindented. */
	private static final Pattern TOP_LEVEL = Pattern
		.compile("^(?:(?:public|protected|private|abstract|final|sealed|non-sealed|strictfp)\\s+)*"
				+ "(?:class|interface|enum|record|@interface)\\s+\\w+", Pattern.MULTILINE);

	/** The last package or import statement: the class javadoc comes after it. */
	private static final Pattern HEADER = Pattern.compile("^(?:package|import)\\s[^;]+;", Pattern.MULTILINE);

	@Test
	void everyTopLevelMainClassHasAClassJavadoc() throws IOException {
		List<String> missing = new ArrayList<>();
		int files = 0;
		try (Stream<Path> sources = Files.walk(Paths.get("src", "main", "java"))) {
			for (Path source : sources.filter((path) -> path.toString().endsWith(".java"))
				.filter((path) -> !path.endsWith("package-info.java"))
				.toList()) {
				files++;
				if (!hasClassJavadoc(Files.readString(source, StandardCharsets.UTF_8))) {
					missing.add(source.toString());
				}
			}
		}
		assertThat(files).isGreaterThan(30);
		assertThat(missing).as("main classes without a class javadoc saying their job").isEmpty();
	}

	@Test
	void theScanTellsADocumentedClassFromAnUndocumentedOne() {
		assertThat(hasClassJavadoc("""
				package a;

				import b.C;

				/**
				 * Does one thing.
				 */
				@Component
				class D {
				}
				""")).isTrue();
		assertThat(hasClassJavadoc("""
				package a;

				/** Does one thing. */
				// Why it is hidden.
				@Hidden
				public final class D {
				}
				""")).isTrue();
		assertThat(hasClassJavadoc("""
				package a;

				import b.C;

				@Component
				class D {

					/** A method's javadoc is not the class's. */
					void e() {
					}

				}
				""")).isFalse();
		assertThat(hasClassJavadoc("""
				/** Above the package: a file comment, not the class's. */
				package a;

				// A line comment is not a javadoc.
				record D(int e) {
				}
				""")).isFalse();
	}

	/** Whether a javadoc stands between the imports and the top-level declaration. */
	static boolean hasClassJavadoc(String source) {
		Matcher declaration = TOP_LEVEL.matcher(source);
		if (!declaration.find()) {
			return false;
		}
		int headerEnd = 0;
		Matcher header = HEADER.matcher(source);
		while (header.find() && header.end() <= declaration.start()) {
			headerEnd = header.end();
		}
		return source.substring(headerEnd, declaration.start()).contains("/**");
	}

}
