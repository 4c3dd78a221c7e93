package dev.pipelininglab.job;

import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.run.KeyWalk;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunSpec;
import dev.pipelininglab.run.Specs;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a run's record says was asked: enough to post it again and get the same run. */
class RunPlanTests {

	@Test
	void aKeyWalkIsRecordedSoPostingTheRequestAgainSendsTheSameKeys() {
		RunSpec walked = new RunSpec(Operation.GET, Mode.LOOP, FlushPolicy.FLUSH_ON_CLOSE, 3000, 1, 0, null, null, 1,
				Specs.plain(null, new KeyWalk(5000, KeyWalk.Pattern.GAUSSIAN, 7)), RunSpec.Senders.DEFAULT, null);
		RunRecord.Request request = RunPlan.single(walked).describe();
		assertThat(request.keys()).isEqualTo(5000);
		assertThat(request.pattern()).isEqualTo("gaussian");
		assertThat(request.seed()).isEqualTo(7);

		RunRecord.Request plain = RunPlan
			.single(Specs.of(Operation.GET, Mode.LOOP, FlushPolicy.FLUSH_ON_CLOSE, 10, 1, 0))
			.describe();
		assertThat(plain.keys()).isNull();
		assertThat(plain.pattern()).isNull();
		assertThat(plain.seed()).isNull();
	}

}
