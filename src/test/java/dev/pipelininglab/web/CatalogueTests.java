package dev.pipelininglab.web;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.Writes;
import dev.pipelininglab.web.job.RunJobController;
import dev.pipelininglab.web.recipe.RecipeController;
import dev.pipelininglab.web.text.ResultTable;
import dev.pipelininglab.web.text.TableColumns;
import org.junit.jupiter.api.Test;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The parameter and problem catalogues against what the code accepts and what the API
 * reference ({@code docs/api.md}) says. (The API description and the {@code GET /}
 * listing are checked against the parameter catalogue in {@link ApiDescriptionTests}.)
 */
class CatalogueTests {

	private static final Set<String> BODY_ONLY = Set.of("kind", "operation", "mode");

	/** Where the parameter table and the problem types are written for people. */
	private static final Path API_REFERENCE = Path.of("docs/api.md");

	@Test
	void everyParameterTheControllersTakeIsInTheCatalogueAndNothingElse() {
		Set<String> accepted = new TreeSet<>();
		for (Class<?> controller : List.of(RunController.class, RunJobController.class, RecipeController.class)) {
			for (Method method : controller.getDeclaredMethods()) {
				for (Parameter parameter : method.getParameters()) {
					PathVariable path = parameter.getAnnotation(PathVariable.class);
					RequestParam query = parameter.getAnnotation(RequestParam.class);
					if (path != null) {
						accepted.add(path.value().isEmpty() ? parameter.getName() : path.value());
					}
					else if (query != null) {
						accepted.add(query.value().isEmpty() ? parameter.getName() : query.value());
					}
					else if (parameter.getType() == RunParams.class) {
						Arrays.stream(RunParams.class.getRecordComponents())
							.map(RecordComponent::getName)
							.forEach(accepted::add);
					}
				}
			}
		}
		// Body-only fields (instances) are record components of RunJobRequest.
		Arrays.stream(RunJobRequest.class.getRecordComponents())
			.map(RecordComponent::getName)
			.filter((
					name) -> ApiParameter.named(name).filter((known) -> known.in() == ApiParameter.In.BODY).isPresent())
			.forEach(accepted::add);
		assertThat(accepted).containsExactlyInAnyOrderElementsOf(names(Stream.of(ApiParameter.values())));
	}

	@Test
	void theBodyOfPostRunsHasTheQueryParametersOfTheRunsItMirrors() {
		Set<String> fields = new TreeSet<>();
		Arrays.stream(RunJobRequest.class.getRecordComponents())
			.map(RecordComponent::getName)
			.filter((name) -> !BODY_ONLY.contains(name))
			.forEach(fields::add);
		assertThat(fields).containsExactlyInAnyOrderElementsOf(names(Stream.of(ApiParameter.values())
			.filter((parameter) -> parameter.endpoints().contains(Endpoints.COMPARE)
					|| parameter.endpoints().contains(Endpoints.SWEEP) || parameter.in() == ApiParameter.In.BODY)
			.filter((parameter) -> parameter != ApiParameter.OP)
			// How a table is written is asked for when the job's record is read.
			.filter((parameter) -> parameter != ApiParameter.COLUMNS)));
	}

	@Test
	void theApiReferenceTableListsEveryQueryAndBodyParameterOfTheCatalogue() throws IOException {
		String reference = Files.readString(API_REFERENCE);
		assertThat(reference).contains("| Parameter | Applies to |");
		String table = reference.substring(reference.indexOf("| Parameter | Applies to |"));
		table = table.substring(0, table.indexOf("\n\n"));
		Set<String> rows = new TreeSet<>();
		Matcher row = Pattern.compile("(?m)^\\| `([A-Za-z]+)` \\|").matcher(table);
		while (row.find()) {
			rows.add(row.group(1));
		}
		assertThat(rows).containsExactlyInAnyOrderElementsOf(
				names(Stream.of(ApiParameter.values()).filter((parameter) -> parameter.in() != ApiParameter.In.PATH)));
	}

	/**
	 * web.text builds the columns, the catalogue names them for the checks and the
	 * descriptions, as web.text is above the catalogue.
	 */
	@Test
	void theColumnKeysOfTheCatalogueAreTheTablesAndItsDefaultIsTheTextDefault() {
		assertThat(FixedBounds.COLUMNS)
			.containsExactlyElementsOf(TableColumns.NAMED.stream().map(ResultTable.Column::key).toList());
		LabSettings lab = new LabSettings(null,
				new PipelineProperties(FlushPolicy.buffered(500), Writes.PER_COMMAND, Duration.ofSeconds(60)), null,
				null);
		assertThat(ApiParameter.COLUMNS.description(lab))
			.contains("any of " + String.join(", ", FixedBounds.COLUMNS) + ".")
			.contains("text/plain " + String.join(",", TableColumns.SHORT) + " (");
	}

	@Test
	void theApiReferenceListsEveryProblemType() throws IOException {
		String reference = Files.readString(API_REFERENCE);
		Set<String> listed = new TreeSet<>();
		Matcher type = Pattern.compile("`(urn:pipelining-lab:problem:[a-z-]+)`").matcher(reference);
		while (type.find()) {
			listed.add(type.group(1));
		}
		assertThat(listed).containsExactlyInAnyOrderElementsOf(
				Stream.of(ProblemType.values()).map((problem) -> problem.uri().toString()).toList());
	}

	@Test
	void theProblemPrefixIsWrittenOnceInTheMainCode() throws IOException {
		List<Path> writers;
		try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
			writers = files.filter((file) -> file.toString().endsWith(".java")).filter((file) -> {
				try {
					return Files.readString(file).contains("urn:pipelining-lab:problem:");
				}
				catch (IOException ex) {
					throw new IllegalStateException(ex);
				}
			}).toList();
		}
		assertThat(writers).containsExactly(Path.of("src/main/java/dev/pipelininglab/ProblemType.java"));
	}

	private static List<String> names(Stream<ApiParameter> parameters) {
		return parameters.map(ApiParameter::parameterName).toList();
	}

}
