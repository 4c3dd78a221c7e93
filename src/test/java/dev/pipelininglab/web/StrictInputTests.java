package dev.pipelininglab.web;

import dev.pipelininglab.job.RunExecutor;
import dev.pipelininglab.web.job.RunJobController;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The same strict rules for every number and name, on the GET endpoints and in the body
 * of {@code POST /runs} that mirrors them: unknown or repeated parameters, non-ASCII
 * digits, plus signs, empty list entries, fractions and strings where whole numbers
 * belong, and an RTT too small for the relay. None of them reaches the code that talks to
 * Redis.
 */
@WebMvcTest(controllers = { RunController.class, RunJobController.class })
class StrictInputTests extends WebLayerWithStandIns {

	@AfterEach
	void nothingReachedRedis() {
		verifyNoInteractions(this.runs, this.cleaner);
		// (RunExecutor is a lifecycle bean, so the context itself talks to the mock.)
		verify(this.jobs, never()).submit(any());
		verify(this.jobs, never()).run(any(), any());
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			/pipeset/10?bacthSize=5                  | bacthSize | did you mean batchSize?
			/compare/set/10?variant=loop             | variant   | did you mean variants?
			/sweep/set/10?batchsizes=1,2             | batchsizes| did you mean batchSizes?
			/pipeget/10?flushpolicy=flush-on-close   | flushpolicy | did you mean flushPolicy?
			/pipeset/10?foo=1                        | foo       | known: batchSize, sample, ttl, flushPolicy, rtt
			/pipeset/10?limit=5                      | limit     | it applies to GET /runs only
			/runs?limti=5                            | limti     | did you mean limit?
			/runs?batchSize=5                        | batchSize | it applies to every run and /recipes only
			/pipeset/10?batchSize=5&batchSize=6      | batchSize | must be given once
			""")
	void unknownOrRepeatedQueryParameterIsA400NamingTheNearestKnownOne(String uri, String parameter, String hint)
			throws Exception {
		badRequest(this.mvc.perform(get(uri)), parameter).andExpect(jsonPath("$.detail").value(containsString(hint)));
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			/pipeset/10?flushPolicy=buffered-٥         | flushPolicy
			/pipeset/10?flushPolicy=buffered-+7        | flushPolicy
			/pipeset/10?flushPolicy=buffered-%2B7      | flushPolicy
			/compare/set/10?flushPolicy=buffered-١٠    | flushPolicy
			/sweep/set/10?batchSizes=١                 | batchSizes
			/sweep/set/10?batchSizes=%2B2              | batchSizes
			/sweep/set/10?batchSizes=1,,2              | batchSizes
			/sweep/set/10?batchSizes=1,2,              | batchSizes
			/sweep/set/10?batchSizes=,1                | batchSizes
			/compare/set/10?variants=loop,,async       | variants
			/pipeset/%2B10                             | count
			/pipeset/10?batchSize=%2B5                 | batchSize
			/pipeset/10?rtt=0.0000001                  | rtt
			/pipeset/10?rtt=0.0009                     | rtt
			/compare/set/10?rtt=0.0000001              | rtt
			""")
	void numbersAreAsciiDigitsOnlyEverywhere(String uri, String parameter) throws Exception {
		badRequest(this.mvc.perform(get(uri)), parameter);
	}

	@Test
	void aMalformedCountIsToldTheConfiguredBoundNotTheJavaOne() throws Exception {
		badRequest(this.mvc.perform(get("/pipeset/abc")), "count")
			.andExpect(jsonPath("$.detail").value(containsString("10000000")))
			.andExpect(jsonPath("$.detail").value(not(containsString(Long.toString(Long.MAX_VALUE)))));
		badRequest(this.mvc.perform(get("/pipeset/10?batchSize=x")), "batchSize")
			.andExpect(jsonPath("$.detail").value(containsString("100000")))
			.andExpect(jsonPath("$.detail").value(not(containsString(Integer.toString(Integer.MAX_VALUE)))));
	}

	@Test
	void aTooSmallRttNamesTheMinimum() throws Exception {
		badRequest(this.mvc.perform(get("/pipeset/10?rtt=0.0000001")), "rtt")
			.andExpect(jsonPath("$.detail").value(containsString("0.001")));
	}

	/**
	 * Each factor within its bounds, their product terabytes: the whole request is
	 * bounded by lab.limits.max-run-bytes before anything runs, and the 400 names the
	 * product.
	 */
	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			/pipeset/10000000?clients=64&valueSize=1048576        | valueSize
			/pipeset/1000000?valueSize=8192                        | valueSize
			/compare/set/1000000?valueSize=4096&variants=loop,async | valueSize
			/sweep/set/1000000?valueSize=4096&batchSizes=10,100     | valueSize
			""")
	void aRunTooLargeAsAWholeIsRefusedBeforeItStarts(String uri, String parameter) throws Exception {
		badRequest(this.mvc.perform(get(uri)), parameter)
			.andExpect(jsonPath("$.detail").value(containsString("lab.limits.max-run-bytes")));
	}

	@Test
	void aJobTooLargeAsAWholeIsRefusedToo() throws Exception {
		badRequest(this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON)
			.content("{\"operation\":\"set\",\"count\":1000000,\"valueSize\":4096,"
					+ "\"variants\":[\"loop\",\"async\"]}")),
				"valueSize");
	}

	/**
	 * A name is read exactly as written, wherever it arrives: no trimmed control
	 * characters or spaces, no other case.
	 */
	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			/pipeset/10?flushPolicy=flush-on-close%00 | flushPolicy
			/pipeset/10?flushPolicy=%20buffered-10    | flushPolicy
			/pipeset/10?flushPolicy=BUFFERED-10       | flushPolicy
			/pipeset/10?connector=lettuce%0B          | connector
			/pipeset/10?connection=Pooled             | connection
			/compare/SET/1                            | op
			/compare/set/10?variants=%20loop          | variants
			""")
	void namesAreReadExactlyAsWritten(String uri, String parameter) throws Exception {
		badRequest(this.mvc.perform(get(uri)), parameter);
	}

	/**
	 * Problems speak the API's words and quote what was sent by a short prefix: no JSON
	 * library switches, no 16 KB value echoed back, control characters made visible.
	 */
	@Test
	void problemsQuoteShortAndSpeakTheApisWords() throws Exception {
		String nan = this.mvc
			.perform(post("/runs").contentType(MediaType.APPLICATION_JSON)
				.content("{\"operation\": \"set\", \"mode\": \"pipelined\", \"count\": NaN}"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		org.assertj.core.api.Assertions.assertThat(nan).doesNotContain("Feature", "ALLOW_", "`");
		String long_ = this.mvc.perform(get("/pipeset/10?flushPolicy=" + "x".repeat(10_000) + "%00"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		org.assertj.core.api.Assertions.assertThat(long_).hasSizeLessThan(1_000).doesNotContain("x".repeat(41));
		String control = this.mvc.perform(get("/pipeset/10").param("flushPolicy", "flush-on-close\u0000"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		org.assertj.core.api.Assertions.assertThat(control).contains("flush-on-close\\\\u0000");
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
			`{"operation": "set", "mode": "pipelined", "count": 10, "ttl": 1.5}`                   | ttl
			`{"operation": "set", "mode": "pipelined", "count": 1.9}`                              | count
			`{"operation": "set", "mode": "pipelined", "count": 1e1}`                              | count
			`{"operation": "set", "mode": "pipelined", "count": "1"}`                              | count
			`{"operation": "set", "mode": "pipelined", "count": 10, "batchSize": "5"}`             | batchSize
			`{"operation": "set", "mode": "pipelined", "count": 10, "sample": 2.0}`                | sample
			`{"operation": "set", "mode": "pipelined", "count": 10, "rtt": "2"}`                   | rtt
			`{"operation": "set", "mode": "pipelined", "count": 10, "rtt": 0.0000001}`             | rtt
			`{"operation": "set", "mode": "pipelined", "count": 10, "count": 20}`                  | count
			`{"operation": "set", "count": 10, "variants": ["loop,async"]}`                        | variants
			`{"operation": "set", "count": 10, "variants": ["loop", ""]}`                          | variants
			`{"operation": "set", "count": 10, "variants": [null]}`                                | variants
			`{"operation": "set", "count": 10, "variants": ["loop", null]}`                        | variants
			`{"kind": "sweep", "operation": "set", "count": 10, "batchSizes": [null]}`             | batchSizes
			`{"kind": "sweep", "operation": "set", "count": 10, "batchSizes": [1, 2.5]}`           | batchSizes
			`{"kind": "sweep", "operation": "set", "count": 10, "batchSizes": ["1"]}`              | batchSizes
			`{"operation": "set", "mode": "pipelined", "count": 10, "flushPolicy": "buffered-+7"}` | flushPolicy
			`{"operation": "set", "mode": "pipelined", "count": 10, "flushPolicy": "buffered-٥"}`  | flushPolicy
			`{"operation": "set", "mode": "pipelined", "count": 10, "bacthSize": 5}`               | bacthSize
			`{"operation": "set", "mode": "pipelined", "count": 10, "rtt": 1e-3}`                  | rtt
			`{"operation": "set", "mode": "pipelined", "count": 10, "rtt": 1E1}`                   | rtt
			`{"operation": "set", "mode": "pipelined", "count": 10, "flushPolicy": " buffered-10"}` | flushPolicy
			`{"operation": "SET", "mode": "pipelined", "count": 10}`                               | operation
			`{"operation": "set", "mode": "Pipelined", "count": 10}`                               | mode
			`{"kind": "Sweep", "operation": "set", "count": 10}`                                   | kind
			""")
	void postRunsFollowsTheRulesOfTheGetItMirrors(String body, String parameter) throws Exception {
		badRequest(this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content(body)), parameter);
	}

	@Test
	void aMisspeltBodyFieldNamesTheNearestOne() throws Exception {
		badRequest(this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
				{"operation": "set", "mode": "pipelined", "count": 10, "bacthSize": 5}""")), "bacthSize")
			.andExpect(jsonPath("$.detail").value(containsString("did you mean batchSize?")));
	}

	private static ResultActions badRequest(ResultActions result, String parameter) throws Exception {
		return result.andExpect(status().isBadRequest())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:invalid-parameter"))
			.andExpect(jsonPath("$.parameter").value(parameter))
			.andExpect(jsonPath("$.detail").value(startsWith(parameter + " must")));
	}

}
