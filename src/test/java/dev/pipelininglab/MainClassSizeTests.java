package dev.pipelininglab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No main class grows past 350 lines: past that a class holds more than one role, and the
 * next change splits it by role instead of adding to it.
 */
class MainClassSizeTests {

	private static final int MAX_LINES = 350;

	@Test
	void noMainSourceFileIsOver350Lines() throws IOException {
		List<String> over;
		long files;
		try (Stream<Path> sources = Files.walk(Paths.get("src", "main", "java"))) {
			List<Path> java = sources.filter((path) -> path.toString().endsWith(".java")).toList();
			files = java.size();
			over = java.stream()
				.filter((path) -> lines(path) > MAX_LINES)
				.map((path) -> path + ": " + lines(path))
				.toList();
		}
		assertThat(files).isGreaterThan(100);
		assertThat(over).as("main source files over %d lines", MAX_LINES).isEmpty();
	}

	private static long lines(Path source) {
		try (Stream<String> lines = Files.lines(source)) {
			return lines.count();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
