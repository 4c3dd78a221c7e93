package dev.pipelininglab.web;

import java.util.stream.Stream;

import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
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
		assertThat(RunEndpoint.ALL).extracting(RunEndpoint::operation)
			.containsAll(Stream.of(Operation.values()).toList());
		assertThat(RunEndpoint.ALL).extracting(RunEndpoint::path).doesNotHaveDuplicates();
		Stream.of(Operation.values())
			.filter(Operation::comparable)
			.forEach((operation) -> assertThat(RunEndpoint.ALL)
				.filteredOn((endpoint) -> endpoint.operation() == operation)
				.extracting(RunEndpoint::mode)
				.containsExactly(Mode.PIPELINED, Mode.LOOP));
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
