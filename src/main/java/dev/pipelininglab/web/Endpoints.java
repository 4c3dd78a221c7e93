package dev.pipelininglab.web;

import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;

/** The path patterns of the API's endpoints, grouped by the parameters they share. */
final class Endpoints {

	static final String COMPARE = "/compare/{op}/{count}";

	static final String SWEEP = "/sweep/{op}/{count}";

	static final String JOBS = "/runs";

	static final List<String> PIPELINED = runs((run) -> run.mode() == Mode.PIPELINED, COMPARE, SWEEP);

	static final List<String> SETS = runs((run) -> run.operation() == Operation.SET, COMPARE, SWEEP);

	static final List<String> MULTIPLE = List.of(COMPARE, SWEEP);

	static final List<String> MIXED = runs((run) -> run.operation() == Operation.MIXED, COMPARE, SWEEP);

	/** In /compare and /sweep it depends on the operation, checked there. */
	static final List<String> KEYED = runs((run) -> run.operation().takesKeyWalk(), COMPARE, SWEEP);

	static final List<String> RUNS = runs((run) -> true, COMPARE, SWEEP);

	/** In /compare and /sweep it depends on the operation, checked there. */
	static final List<String> VALUES = runs((run) -> run.operation().carriesValues(), COMPARE, SWEEP);

	static final String RECIPE = "/recipes/{variant}";

	static final String REPORT = "/runs/{id}/report.{format}";

	static final List<String> TABLES = Stream.concat(RUNS.stream(), Stream.of(REPORT)).toList();

	static final List<String> RUNS_AND_RECIPES = Stream.concat(RUNS.stream(), Stream.of(RECIPE)).toList();

	static final String PAIR = "/runs/compare";

	static final List<String> JOB = List.of("/runs/{id}", "/runs/{id}/events", REPORT);

	static final List<String> CONNECTOR = runs(RunEndpoint::takesConnector, SWEEP);

	static final List<String> CONNECTION = runs((run) -> run.takesConnector() && run.mode() == Mode.LOOP, COMPARE);

	private Endpoints() {
	}

	private static List<String> runs(Predicate<RunEndpoint> which, String... others) {
		return Stream.concat(RunEndpoint.paths(which).stream(), Stream.of(others)).toList();
	}

}
