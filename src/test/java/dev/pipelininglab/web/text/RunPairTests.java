package dev.pipelininglab.web.text;

import java.time.Instant;
import java.util.List;

import dev.pipelininglab.job.RunKind;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.job.RunStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Side by side warns of what else differs than the change a reader assumes (here the
 * operation) and of a run that another run of the app disturbed, in JSON and in text.
 */
class RunPairTests {

	@Test
	void twoRunsOfDifferentOperationsOneOfThemOverlappedAreWarnedOfInJsonAndText() {
		RunPair pair = RunPair.of(record("a", "set", null), record("b", "get", true));
		assertThat(pair.warnings()).containsExactly(
				"These runs differ in operation (A: SET, B: GET): the ratios below compare those differences too, not"
						+ " only the change you made.",
				"B: " + ResultTextConverter.OVERLAPPED + ".");
		assertThat(pair.render("plain")).contains("warning: These runs differ in operation (A: SET, B: GET)",
				"warning: B: another run of this app was measuring at the same time");
		assertThat(RunPair.of(record("a", "set", false), record("c", "set", false)).warnings()).isNull();
	}

	private static RunRecord record(String id, String operation, Boolean overlapped) {
		Instant now = Instant.parse("2026-11-28T12:00:00Z");
		RunRecord.Request request = new RunRecord.Request(RunKind.COMPARE, operation, null, 1000, 100, 0, null, null,
				null, null, List.of("loop", "pipelined"), null, null, null, 1, null, null, null, null, null, null, null,
				null, null);
		return new RunRecord(id, RunKind.COMPARE, RunStatus.DONE, request, new RunRecord.Progress(10, 10, 100), false,
				"instance-1", now, now, now, now, List.of(), null, null, null, null, overlapped, null, null);
	}

}
