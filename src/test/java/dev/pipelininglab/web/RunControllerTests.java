package dev.pipelininglab.web;

import java.util.List;

import dev.pipelininglab.job.RunExecutor;
import dev.pipelininglab.job.RunKind;
import dev.pipelininglab.job.RunPlan;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.Variant;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code RunController}'s own contract, without Redis: {@code /compare} and
 * {@code /sweep} turn path and query into the plan they hand the run executor and answer
 * where its record is, and {@code DELETE /keys} cleans under a run slot and says what it
 * removed. What the runs do on a real Redis: {@code EndpointContract}.
 */
@WebMvcTest(controllers = RunController.class)
class RunControllerTests extends WebLayerWithStandIns {

	@Test
	void aComparisonHandsTheExecutorItsPlanAndAnswersWhereItsRecordIs() throws Exception {
		given(this.jobs.run(any(), any())).willReturn(new RunExecutor.Answer("run-1", null));
		this.mvc.perform(get("/compare/get/3000?batchSize=300&variants=loop,pipelined"))
			.andExpect(status().isOk())
			.andExpect(header().string("Content-Location", "/runs/run-1"));
		RunPlan plan = ran();
		assertThat(plan.kind()).isEqualTo(RunKind.COMPARE);
		assertThat(plan.base().operation()).isEqualTo(Operation.GET);
		assertThat(plan.base().count()).isEqualTo(3000);
		assertThat(plan.base().batchSize()).isEqualTo(300);
		assertThat(plan.variants()).extracting(Variant::mode).containsExactly(Mode.LOOP, Mode.PIPELINED);
	}

	@Test
	void aSweepHandsTheExecutorItsBatchSizesInTheOrderAsked() throws Exception {
		given(this.jobs.run(any(), any())).willReturn(new RunExecutor.Answer("run-2", null));
		this.mvc.perform(get("/sweep/set/5000?batchSizes=100,10,1000"))
			.andExpect(status().isOk())
			.andExpect(header().string("Content-Location", "/runs/run-2"));
		RunPlan plan = ran();
		assertThat(plan.kind()).isEqualTo(RunKind.SWEEP);
		assertThat(plan.base().operation()).isEqualTo(Operation.SET);
		assertThat(plan.base().count()).isEqualTo(5000);
		assertThat(plan.batchSizes()).isEqualTo(List.of(100, 10, 1000));
	}

	@Test
	void deletingTheKeysCleansUnderARunSlotAndAnswersThePatternAndHowManyWent() throws Exception {
		given(this.jobs.withSlot(any())).willReturn(42L);
		this.mvc.perform(delete("/keys"))
			.andExpect(status().isOk())
			.andExpect(content().contentType(MediaType.APPLICATION_JSON))
			.andExpect(jsonPath("$.pattern").value("pipelining-lab:*"))
			.andExpect(jsonPath("$.deleted").value(42));
		verify(this.jobs).withSlot(any());
		// The cleaner runs inside the slot the stand-in never gave.
		verifyNoInteractions(this.cleaner, this.runs);
	}

	private RunPlan ran() {
		ArgumentCaptor<RunPlan> plan = ArgumentCaptor.forClass(RunPlan.class);
		verify(this.jobs).run(plan.capture(), any());
		return plan.getValue();
	}

}
