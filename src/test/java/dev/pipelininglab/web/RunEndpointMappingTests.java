package dev.pipelininglab.web;

import dev.pipelininglab.job.RunExecutor;
import dev.pipelininglab.job.RunPlan;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mockito.ArgumentCaptor;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcRegistrations;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The run endpoints are mapped through Spring MVC's public {@code registerMapping}, each
 * to a handler that knows its operation and mode. Another {@code WebMvcRegistrations} in
 * the app (Boot takes one only while it is the only one) no longer unmaps them.
 */
@WebMvcTest(controllers = { RunController.class })
@Import(RunEndpointMappingTests.AnotherRegistrations.class)
class RunEndpointMappingTests extends WebLayerWithStandIns {

	@BeforeEach
	void runsAnswerNothing() {
		// What the run answers is not this test's business, only which run was asked for.
		given(this.jobs.run(any(), any())).willReturn(new RunExecutor.Answer("id", null));
	}

	@ParameterizedTest
	@CsvSource({ "/pipeset/7, SET, PIPELINED", "/loopget/7, GET, LOOP", "/pipemixed/7, MIXED, PIPELINED",
			"/listinput/7, RPUSH, PIPELINED" })
	void eachPathRunsItsOwnOperationInItsOwnMode(String path, Operation operation, Mode mode) throws Exception {
		this.mvc.perform(get(path)).andExpect(status().isOk());

		ArgumentCaptor<RunPlan> plan = ArgumentCaptor.forClass(RunPlan.class);
		verify(this.jobs).run(plan.capture(), any());
		assertThat(plan.getValue().base().operation()).isEqualTo(operation);
		assertThat(plan.getValue().base().mode()).isEqualTo(mode);
		assertThat(plan.getValue().base().count()).isEqualTo(7);
	}

	@Test
	void aRunPathWithoutItsCountIsA400NamingTheCount() throws Exception {
		this.mvc.perform(get("/loopget/"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("count"));
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class AnotherRegistrations {

		@Bean
		WebMvcRegistrations anotherWebMvcRegistrations() {
			return new WebMvcRegistrations() {
			};
		}

	}

}
