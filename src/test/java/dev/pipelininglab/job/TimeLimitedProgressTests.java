package dev.pipelininglab.job;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunObserver.Phase;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Specs;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A job with a time limit fills its progress bar by the clock while a pass is timed: ten
 * million loop commands limited to two seconds are half done after one second, not a
 * hundredth, and the time left says about a second.
 */
class TimeLimitedProgressTests {

	@Test
	void aTimedPassUnderATimeLimitProgressesByTheClock() {
		RunSpec spec = new RunSpec(Operation.SET, Mode.LOOP, FlushPolicy.FLUSH_ON_CLOSE, 10_000_000, 100, 0, null, null,
				1, Specs.plain(Duration.ofSeconds(2), null), RunSpec.Senders.DEFAULT, null);
		RunPlan plan = RunPlan.single(spec);
		Instant now = Instant.now();
		RunRecord record = new RunRecord("5e2c1d55-0000-4000-8000-000000000002", RunKind.SINGLE, RunStatus.QUEUED,
				plan.describe(), new RunRecord.Progress(0, 0, 0), false, "test:1", now, null, null, now, null, null,
				null, null, null, null, null, null);
		ActiveRun job = new ActiveRun(plan, null, record, PhasePlan.of(plan, 1_000, List.of()), Duration.ofMinutes(10),
				null);
		job.update(RunStatus.RUNNING, now);
		job.phase(Phase.TIMING, PhasePlan.label(spec), spec.batchSize(), spec.count());
		job.commandsDone(1_000);

		await().atMost(Duration.ofSeconds(5)).until(() -> job.progress().percent() >= 40);
		RunRecord.Progress progress = job.progress();
		// By commands it would be 0.01%: the clock, not the count, moves the bar.
		assertThat(progress.percent()).isLessThan(100);
		assertThat(progress.remainingSeconds()).isNotNull().isLessThan(3.0);
	}

}
