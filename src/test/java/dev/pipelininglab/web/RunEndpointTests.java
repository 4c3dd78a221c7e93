package dev.pipelininglab.web;

import java.util.Locale;

import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The run endpoints come from the operations: each has its endpoints, no two share a
 * path, and the paths a browser has always used are among them.
 */
class RunEndpointTests {

	@Test
	void everyOperationHasItsEndpointsAndNoTwoSharePath() {
		assertThat(RunEndpoint.ALL).extracting(RunEndpoint::path).doesNotHaveDuplicates();
		for (Operation operation : Operation.values()) {
			String label = operation.name().toLowerCase(Locale.ROOT);
			// Spelt out here, not derived as ALL is: an operation without them fails.
			Tuple[] expected = operation.comparable()
					? new Tuple[] { tuple("/pipe" + label + "/{count}", Mode.PIPELINED),
							tuple("/loop" + label + "/{count}", Mode.LOOP) }
					: new Tuple[] { tuple("/listinput/{count}", Mode.PIPELINED) };
			assertThat(RunEndpoint.ALL).as(operation.name())
				.filteredOn((endpoint) -> endpoint.operation() == operation)
				.extracting(RunEndpoint::path, RunEndpoint::mode)
				.containsExactly(expected);
		}
	}

	@Test
	void thePathsStayTheOnesBrowsersAndCollectionsUse() {
		assertThat(RunEndpoint.ALL).extracting(RunEndpoint::path, RunEndpoint::operation, RunEndpoint::mode)
			.contains(tuple("/pipeset/{count}", Operation.SET, Mode.PIPELINED),
					tuple("/loopmixed/{count}", Operation.MIXED, Mode.LOOP),
					tuple("/listinput/{count}", Operation.RPUSH, Mode.PIPELINED));
		assertThat(RunEndpoint.ALL).hasSize(21);
	}

}
