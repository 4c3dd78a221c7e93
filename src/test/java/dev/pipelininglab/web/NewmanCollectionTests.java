package dev.pipelininglab.web;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.pipelininglab.testsupport.Commands;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs the Postman collection in {@code postman/} with newman against the app on a real
 * port, so the collection's own tests (status and body shape of every endpoint) are part
 * of the build. newman comes from the npm registry through {@code npx}; skipped where
 * there is no {@code npx}, unless {@code LAB_REQUIRE_NEWMAN=true} (set by
 * {@code .ci/run}), where that fails. Reports go to {@code target/newman}. Two run slots,
 * as {@code scripts/newman.sh} gives the app: the collection's two long runs take them
 * all, and its third run is answered 429.
 */
@TestPropertySource(properties = "lab.admission.max-concurrent=2")
@SlowTest
class NewmanCollectionTests extends AppOnTestRedis {

	private static final Path COLLECTION = Path.of("postman", "pipelining-lab.postman_collection.json");

	private static final Path ENVIRONMENT = Path.of("postman", "pipelining-lab.postman_environment.json");

	private static final Path REPORTS = Path.of("target", "newman");

	@BeforeEach
	void startEmpty() {
		flushRedis();
	}

	@Test
	void collectionPassesAgainstTheRunningApp() throws Exception {
		boolean npx = commandWorks("npx", "--version");
		if (!npx && "true".equalsIgnoreCase(System.getenv("LAB_REQUIRE_NEWMAN"))) {
			fail("LAB_REQUIRE_NEWMAN is set but npx is missing");
		}
		assumeTrue(npx, "npx (Node.js) is needed to run newman");
		Files.createDirectories(REPORTS);
		Path log = REPORTS.resolve("newman.log");
		Process newman = new ProcessBuilder(List.of("npx", "--yes", "newman@6", "run", COLLECTION.toString(), "-e",
				ENVIRONMENT.toString(), "--env-var", "baseUrl=" + baseUrl(), "--reporters", "cli,junit",
				"--reporter-junit-export", REPORTS.resolve("newman-junit.xml").toString(), "--timeout-request",
				"120000", "--color", "off", "--disable-unicode"))
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		if (!newman.waitFor(5, TimeUnit.MINUTES)) {
			newman.destroyForcibly();
			fail("newman did not finish within 5 minutes; see " + log);
		}
		String output = Files.readString(log);
		assertThat(newman.exitValue()).as("newman's exit code; its report:%n%s", output).isZero();
		assertThat(output).contains("assertions").doesNotContain("AssertionError");
	}

	private static boolean commandWorks(String... command) {
		return Commands.succeeds(List.of(command));
	}

}
