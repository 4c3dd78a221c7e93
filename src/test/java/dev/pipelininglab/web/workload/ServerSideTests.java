package dev.pipelininglab.web.workload;

import dev.pipelininglab.testsupport.SharedRedis;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.RedisTestServers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Answers say what the server did and only what is true: INFO deltas that tell a loop
 * from a pipeline, no field where it does not apply, a comparison summed up from its own
 * figures, a read that found nothing said in words, the settings behind the figures, and
 * an instance that any number of distinct flush policies cannot use up.
 */
@SpringBootTest
@AutoConfigureMockMvc
@SharedRedis
class ServerSideTests {

	@Autowired
	MockMvc mvc;

	@BeforeEach
	void empty() {
		RedisTestServers.standalone().flushAll();
	}

	@Test
	void theServerReadsOncePerCommandInALoopAndFarLessOftenInAPipeline() throws Exception {
		String loop = body("/loopset/2000");
		String pipeline = body("/pipeset/2000");
		for (String answer : List.of(loop, pipeline)) {
			// The run's 2,000 SETs, plus the INFO call that opened the window.
			assertThat(JsonPath.<Integer>read(answer, "$.server.commands")).isBetween(2000, 2010);
			assertThat(JsonPath.<Number>read(answer, "$.server.cpuMicrosPerCommand").doubleValue()).isPositive();
			assertThat(JsonPath.<Integer>read(answer, "$.server.inputBytes")).isGreaterThan(2000 * 20);
			assertThat(JsonPath.<Integer>read(answer, "$.server.outputBytes")).isGreaterThanOrEqualTo(2000 * 5);
			assertThat(JsonPath.<Integer>read(answer, "$.server.peakOutputBufferBytes")).isNotNegative();
			assertThat(JsonPath.<String>read(answer, "$.server.scope")).contains("server-wide");
		}
		assertThat(JsonPath.<Number>read(loop, "$.server.readsPerCommand").doubleValue()).isBetween(0.95, 1.05);
		assertThat(JsonPath.<Integer>read(loop, "$.server.reads")).isBetween(1990, 2010);
		assertThat(JsonPath.<Number>read(pipeline, "$.server.readsPerCommand").doubleValue()).isLessThan(0.1);
	}

	@Test
	void fieldsThatDoNotApplyAreAbsent() throws Exception {
		this.mvc.perform(get("/loopset/10"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.flushPolicy").doesNotExist())
			.andExpect(jsonPath("$.writes").doesNotExist())
			.andExpect(jsonPath("$.note").doesNotExist())
			.andExpect(jsonPath("$.settings.commandTimeouts").value("off"));
		this.mvc.perform(get("/pipeset/10?flushPolicy=flush-each-command"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.flushPolicy").value("flush-each-command"))
			.andExpect(jsonPath("$.writes").doesNotExist());
		// The default: Lettuce's own endpoint, as any Spring app has it.
		this.mvc.perform(get("/pipeset/10"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.flushPolicy").value("buffered-500"))
			.andExpect(jsonPath("$.writes").value("per-command"));
		String compare = body("/compare/set/100?variants=multi-key,script,async,pipelined-buffered-500-per-flush");
		assertThat(JsonPath.<List<Object>>read(compare, "$.results[?(@.mode != 'pipelined')].flushPolicy")).isEmpty();
		assertThat(JsonPath.<List<String>>read(compare, "$.results[?(@.mode == 'async')].writes"))
			.containsExactly("per-command");
		assertThat(JsonPath.<List<String>>read(compare, "$.results[?(@.mode == 'pipelined')].writes"))
			.containsExactly("per-flush");
		assertThat(JsonPath.<List<String>>read(compare, "$.results[*].variant"))
			.contains("pipelined-buffered-500-per-flush");
		// The settings come once, beside the results.
		assertThat(JsonPath.<List<Object>>read(compare, "$.results[*].settings")).isEmpty();
		assertThat(JsonPath.<Map<String, String>>read(compare, "$.settings")).containsKeys("commandTimeouts",
				"lettuceObservation", "pool");
	}

	@Test
	void theDefaultComparisonShowsBothWaysOfWriting() throws Exception {
		String compare = body("/compare/set/200?sample=0");
		assertThat(JsonPath.<List<String>>read(compare, "$.results[*].variant")).contains("pipelined-buffered-500",
				"pipelined-buffered-500-per-flush");
	}

	@Test
	void theSummaryIsBuiltFromTheComparisonsOwnFigures() throws Exception {
		String compare = body("/compare/set/1000?variants=loop,pipelined");
		List<String> variants = JsonPath.read(compare, "$.results[*].variant");
		List<Double> ops = JsonPath.<List<Number>>read(compare, "$.results[*].opsPerSecond")
			.stream()
			.map(Number::doubleValue)
			.toList();
		List<Double> reads = JsonPath.<List<Number>>read(compare, "$.results[*].server.reads")
			.stream()
			.map((value) -> value.doubleValue() / 1000)
			.toList();
		int fastest = (ops.get(0) > ops.get(1)) ? 0 : 1;
		double speedup = JsonPath.<Number>read(compare, "$.results[1].speedup").doubleValue();
		// The pipelining answer first: the one pipeline asked for, against the loop.
		String expected = String.format(Locale.ROOT,
				"executePipelined with one line of configuration (%s) ran %.1f× the loop, whose loop ran %,.0f ops/s.",
				variants.get(1), speedup, ops.get(0));
		String summary = JsonPath.read(compare, "$.summary");
		assertThat(summary).startsWith(expected);
		assertThat(speedup).isCloseTo(ops.get(1) / ops.get(0), within(0.01));
		if (fastest == 1) {
			assertThat(summary).contains(String.format(Locale.ROOT, "reads per item: %.3f for the loop, %.3f for %s",
					reads.get(0), reads.get(1), variants.get(1)));
		}
	}

	@Test
	void theSummarysLoopCeilingIsTheLoopsOwnMedianRoundTripAndTheLoopNeverBeatsIt() throws Exception {
		String compare = body("/compare/set/2000?variants=loop,pipelined");
		double p50 = JsonPath.<Number>read(compare, "$.results[0].latency.p50").doubleValue();
		double loopOps = JsonPath.<Number>read(compare, "$.results[0].opsPerSecond").doubleValue();
		String summary = JsonPath.read(compare, "$.summary");
		double bound = 1000 / p50;
		if (loopOps <= bound) {
			assertThat(summary).contains(String.format(Locale.ROOT,
					"The loop's own commands took %s ms each (median round trip), so a loop on one connection cannot"
							+ " beat %,.0f ops/s; it ran at %,.0f.",
					new BigDecimal(p50).round(new MathContext(3)).stripTrailingZeros().toPlainString(), bound,
					loopOps));
		}
		else {
			assertThat(summary).contains("bounds nothing here").doesNotContain("cannot beat");
		}
	}

	@Test
	void aReadThatFoundNothingSaysSo() throws Exception {
		this.mvc.perform(get("/looprpop/20"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.popped").value(0))
			.andExpect(jsonPath("$.empty").value(20))
			.andExpect(jsonPath("$.note").value(containsString("list was empty")));
		this.mvc.perform(get("/pipeget/20"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.note").value(containsString("None of the keys existed")));
		this.mvc.perform(get("/listinput/20")).andExpect(status().isOk());
		this.mvc.perform(get("/piperpop/5")).andExpect(status().isOk()).andExpect(jsonPath("$.note").doesNotExist());
	}

	@Test
	void theSweepShowsTheReplyMemoryAtEachBatchSize() throws Exception {
		String sweep = body("/sweep/set/1000?batchSizes=10,1000");
		assertThat(JsonPath.<List<Integer>>read(sweep, "$.results[*].server.peakOutputBufferBytes")).hasSize(2);
	}

	@Test
	void theIndexListsEveryTuningWithSpringBootsDefault() throws Exception {
		String index = this.mvc.perform(get("/").accept(MediaType.APPLICATION_JSON))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(JsonPath.<List<String>>read(index, "$.settings[*].name")).contains("flushPolicy", "writes",
				"commandTimeouts", "commandStack", "lettuceObservation", "pool");
		assertThat(JsonPath.<List<String>>read(index, "$.settings[?(@.name == 'writes')].value"))
			.containsExactly("per-command");
		assertThat(JsonPath.<List<String>>read(index, "$.settings[?(@.name == 'flushPolicy')].springBootDefault"))
			.containsExactly("flush-each-command");
	}

	@Test
	void anyNumberOfDistinctFlushPoliciesLeavesTheAppWorking() throws Exception {
		for (int size = 1; size <= 20; size++) {
			this.mvc.perform(get("/pipeping/1?flushPolicy=buffered-" + size))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.pongs").value(1));
		}
		this.mvc.perform(get("/pipeping/1")).andExpect(status().isOk()).andExpect(jsonPath("$.pongs").value(1));
		this.mvc.perform(get("/pipeping/1?flushPolicy=buffered-1000001"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("flushPolicy"));
	}

	private String body(String path) throws Exception {
		return this.mvc.perform(get(path)).andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
	}

}
