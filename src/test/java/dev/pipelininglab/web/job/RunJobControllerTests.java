package dev.pipelininglab.web.job;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.pipelininglab.job.JobsFullException;
import dev.pipelininglab.job.RunExecutor;
import dev.pipelininglab.job.RunKind;
import dev.pipelininglab.job.RunPlan;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.job.RunStatus;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.run.KeyWalk;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.Variant;
import dev.pipelininglab.web.WebLayerWithStandIns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mockito.ArgumentCaptor;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.startsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The HTTP contract of {@code /runs}: status codes, headers and problem bodies, and that
 * a body is checked like the GET endpoint it mirrors. The job service is a stand-in here,
 * since only HTTP is under test; jobs themselves are tested on a real Redis in
 * {@code RunExecutorTests}.
 */
@WebMvcTest(controllers = RunJobController.class)
class RunJobControllerTests extends WebLayerWithStandIns {

	static final String ID = "0b6f4f5e-7d1c-4f43-9a55-2f1d8c3e6a10";

	@Test
	void startingARunAnswers202WithTheLocationOfItsRecord() throws Exception {
		given(this.jobs.submit(any())).willReturn(record(RunStatus.QUEUED));
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"operation": "set", "mode": "pipelined", "count": 1000000, "batchSize": 5000}"""))
			.andExpect(status().isAccepted())
			.andExpect(header().string("Location", "/runs/" + ID))
			.andExpect(content().contentType(MediaType.APPLICATION_JSON))
			.andExpect(jsonPath("$.id").value(ID))
			.andExpect(jsonPath("$.status").value("QUEUED"))
			.andExpect(jsonPath("$.progress.batchesDone").value(0));
		RunPlan plan = submitted();
		assertThat(plan.kind()).isEqualTo(RunKind.SINGLE);
		assertThat(plan.base().operation()).isEqualTo(Operation.SET);
		assertThat(plan.base().mode()).isEqualTo(Mode.PIPELINED);
		assertThat(plan.base().count()).isEqualTo(1_000_000);
		assertThat(plan.base().batchSize()).isEqualTo(5000);
		assertThat(plan.base().sample()).isEqualTo(10);
	}

	@Test
	void oneInstanceIsARunOfThisInstanceAlone() throws Exception {
		given(this.jobs.submit(any())).willReturn(record(RunStatus.QUEUED));
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"operation": "set", "mode": "pipelined", "count": 1000, "instances": 1}"""))
			.andExpect(status().isAccepted());
		assertThat(submitted().instances()).isEqualTo(1);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					"operation": "set", "mode": "pipelined", "instances": 0                | must be between 1 and 16, got 0
					"operation": "set", "mode": "pipelined", "instances": 17               | must be between 1 and 16, got 17
					"operation": "set", "mode": "pipelined", "instances": 2, "rate": 1000  | without rate, duration, keys or requests
					"operation": "incr", "mode": "pipelined", "instances": 2               | single runs of set or get
					"operation": "set", "variants": ["loop", "pipelined"], "instances": 2  | single runs of set or get
					"operation": "set", "mode": "pipelined", "instances": 2                | not started with lab.fleet.join=true
					""")
	void instancesOutOfBoundsOrWhereNoFleetCanRunAre400sNamingInstancesBeforeAnythingRuns(String fields, String detail)
			throws Exception {
		this.mvc
			.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("{\"count\": 1000, " + fields + "}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("instances"))
			.andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString(detail)));
		verifyNoInteractions(this.jobs);
	}

	@Test
	void aBodyWithAKeyWalkPlansTheWalk() throws Exception {
		given(this.jobs.submit(any())).willReturn(record(RunStatus.QUEUED));
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"operation": "get", "count": 3000, "variants": ["loop", "pipelined"], "keys": 5000,
				 "pattern": "gaussian", "seed": 7}""")).andExpect(status().isAccepted());
		assertThat(submitted().base().workload().keyWalk()).isEqualTo(new KeyWalk(5000, KeyWalk.Pattern.GAUSSIAN, 7));
	}

	@Test
	void variantsMakeAComparisonAndBatchSizesASweep() throws Exception {
		given(this.jobs.submit(any())).willReturn(record(RunStatus.QUEUED));
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"operation": "get", "count": 20000, "batchSize": 1000, "repeat": 3,
				 "variants": ["loop", "pipelined-buffered-100", "async"]}""")).andExpect(status().isAccepted());
		RunPlan compare = submitted();
		assertThat(compare.kind()).isEqualTo(RunKind.COMPARE);
		assertThat(compare.base().repeat()).isEqualTo(3);
		assertThat(compare.variants()).containsExactly(Variant.of(Mode.LOOP),
				new Variant(Mode.PIPELINED, FlushPolicy.buffered(100)), Variant.of(Mode.ASYNC));

		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"kind": "sweep", "operation": "ping", "count": 5000, "batchSizes": [1, 10, 5000]}"""))
			.andExpect(status().isAccepted());
		RunPlan sweep = submitted();
		assertThat(sweep.kind()).isEqualTo(RunKind.SWEEP);
		assertThat(sweep.batchSizes()).containsExactly(1, 10, 5000);
	}

	@Test
	void singleRunOfRpushFillsTheListLikeListInput() throws Exception {
		given(this.jobs.submit(any())).willReturn(record(RunStatus.QUEUED));
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"operation": "rpush", "mode": "pipelined", "count": 100}""")).andExpect(status().isAccepted());
		assertThat(submitted().base().operation()).isEqualTo(Operation.RPUSH);
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
			`{"operation": "set", "mode": "pipelined", "count": 10`                                  | body
			`[1, 2]`                                                                                  | body
			`{"operation": "set", "mode": "pipelined", "count": "ten"}`                              | count
			`{"operation": "set", "mode": "pipelined", "count": 10, "batchsize": 5}`                 | batchsize
			`{"operation": "set", "mode": "pipelined", "count": 10, "variants": "loop"}`             | variants
			`{"operation": "set", "mode": "pipelined", "count": 10, "batchSize": [5]}`               | batchSize
			`{"operation": "set", "mode": "pipelined"}`                                              | count
			`{"operation": "set", "mode": "pipelined", "count": 0}`                                  | count
			`{"operation": "set", "mode": "pipelined", "count": 10000001}`                           | count
			`{"mode": "pipelined", "count": 10}`                                                     | operation
			`{"operation": "getdel", "mode": "pipelined", "count": 10}`                              | operation
			`{"operation": "incr", "mode": "pipelined", "count": 10, "valueSize": 16}`               | valueSize
			`{"operation": "hset", "mode": "loop", "count": 10, "valueSize": 1048577}`               | valueSize
			`{"operation": "get", "count": 30, "variants": ["loop"], "requests": 0}`                 | requests
			`{"operation": "get", "count": 30000, "variants": ["loop"], "requests": 1000}`           | requests
			`{"operation": "rpush", "count": 10, "variants": ["loop"]}`                              | operation
			`{"operation": "set", "count": 10}`                                                      | mode
			`{"operation": "set", "mode": "teleport", "count": 10}`                                  | mode
			`{"kind": "batch", "operation": "set", "mode": "loop", "count": 10}`                     | kind
			`{"operation": "set", "mode": "pipelined", "count": 10, "batchSize": 11}`                | batchSize
			`{"operation": "set", "mode": "pipelined", "count": 10, "sample": 1001}`                 | sample
			`{"operation": "get", "mode": "pipelined", "count": 10, "ttl": 5}`                       | ttl
			`{"operation": "set", "mode": "loop", "count": 10, "flushPolicy": "buffered-10"}`        | flushPolicy
			`{"operation": "set", "mode": "pipelined", "count": 10, "flushPolicy": "sometimes"}`     | flushPolicy
			`{"operation": "set", "mode": "pipelined", "count": 10, "repeat": 2}`                    | repeat
			`{"operation": "set", "mode": "pipelined", "count": 10, "rtt": 0}`                       | rtt
			`{"operation": "set", "count": 10, "variants": []}`                                      | variants
			`{"operation": "set", "count": 10, "variants": ["loop", "warp"]}`                        | variants
			`{"operation": "set", "count": 10, "variants": ["loop"], "mode": "loop"}`                | mode
			`{"operation": "set", "count": 10, "variants": ["loop"], "batchSizes": [1]}`             | batchSizes
			`{"operation": "set", "count": 10, "variants": ["loop"], "repeat": 101}`                 | repeat
			`{"kind": "sweep", "operation": "set", "count": 10, "batchSizes": [1, 20]}`              | batchSizes
			`{"kind": "sweep", "operation": "set", "count": 10, "variants": ["loop"]}`               | variants
			""")
	void badBodyIsA400ProblemNamingTheField(String body, String parameter) throws Exception {
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content(body))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:invalid-parameter"))
			.andExpect(jsonPath("$.parameter").value(parameter))
			.andExpect(jsonPath("$.detail").value(startsWith(parameter + " must")));
		verifyNoInteractions(this.jobs);
	}

	@Test
	void missingBodyIsA400NamingTheBody() throws Exception {
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.parameter").value("body"));
		verifyNoInteractions(this.jobs);
	}

	@Test
	void aModeThatCannotRunTheOperationIsA400() throws Exception {
		given(this.runs.unsupported(any())).willReturn("PING has no multi-key form");
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"operation": "ping", "mode": "multi-key", "count": 10}"""))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("mode"))
			.andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("PING has no multi-key form")));
		verifyNoInteractions(this.jobs);
	}

	@Test
	void everySlotTakenIsA429WithRetryAfter() throws Exception {
		given(this.jobs.submit(any()))
			.willThrow(new JobsFullException(JobsFullException.slotsTaken(8, 0), Duration.ofMillis(2300)));
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"operation": "set", "mode": "loop", "count": 10}"""))
			.andExpect(status().isTooManyRequests())
			.andExpect(header().string("Retry-After", "3"))
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:too-busy"))
			.andExpect(jsonPath("$.retryAfterSeconds").value(3));
	}

	@Test
	void aRunIsReadListedAndCancelled() throws Exception {
		given(this.jobs.get(ID)).willReturn(record(RunStatus.RUNNING));
		this.mvc.perform(get("/runs/" + ID))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("RUNNING"))
			.andExpect(jsonPath("$.request.operation").value("set"));

		given(this.jobs.recent(5)).willReturn(new RunExecutor.History(List.of(record(RunStatus.DONE)), null));
		this.mvc.perform(get("/runs?limit=5"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.runs[0].id").value(ID))
			.andExpect(jsonPath("$.runs[0].status").value("DONE"));

		given(this.jobs.cancel(ID)).willReturn(record(RunStatus.RUNNING));
		this.mvc.perform(delete("/runs/" + ID)).andExpect(status().isAccepted()).andExpect(jsonPath("$.id").value(ID));
	}

	@Test
	void listLimitOutOfBoundsIsA400() throws Exception {
		this.mvc.perform(get("/runs?limit=0"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("limit"));
		this.mvc.perform(get("/runs?limit=101")).andExpect(status().isBadRequest());
		this.mvc.perform(get("/runs?limit=many")).andExpect(status().isBadRequest());
		verifyNoInteractions(this.jobs);
	}

	@Test
	void unknownRunIsA404AndAFinishedOneCannotBeCancelled() throws Exception {
		given(this.jobs.get(ID)).willThrow(RunRecord.notFound(ID));
		this.mvc.perform(get("/runs/" + ID))
			.andExpect(status().isNotFound())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:run-not-found"))
			.andExpect(jsonPath("$.id").value(ID));

		given(this.events.stream(ID)).willThrow(RunRecord.notFound(ID));
		this.mvc.perform(get("/runs/" + ID + "/events").accept(MediaType.TEXT_EVENT_STREAM))
			.andExpect(status().isNotFound());

		given(this.jobs.cancel(ID)).willThrow(record(RunStatus.DONE).finished());
		this.mvc.perform(delete("/runs/" + ID))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:run-finished"))
			.andExpect(jsonPath("$.runStatus").value("DONE"));
	}

	private RunPlan submitted() {
		ArgumentCaptor<RunPlan> plan = ArgumentCaptor.forClass(RunPlan.class);
		verify(this.jobs, org.mockito.Mockito.atLeastOnce()).submit(plan.capture());
		return plan.getValue();
	}

	private static RunRecord record(RunStatus status) {
		Instant now = Instant.now();
		RunRecord.Request request = new RunRecord.Request(RunKind.SINGLE, "set", "pipelined", 1000, 100, 10, null,
				"flush-on-close", null, null, null, null, null, null, 1, "lettuce", null, null, null, null, null, null,
				null, null);
		return new RunRecord(ID, RunKind.SINGLE, status, request, new RunRecord.Progress(0, 0, 0), false, "test:1", now,
				null, null, now, null, null, null, null, null, null, null, null);
	}

}
