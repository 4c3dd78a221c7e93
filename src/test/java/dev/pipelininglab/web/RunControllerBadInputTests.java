package dev.pipelininglab.web;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.provider.Arguments;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.reset;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The HTTP contract for bad input: every case is a 400 problem naming the parameter, and
 * none reaches the code that talks to Redis (the service is a stand-in here only to prove
 * it was never called).
 */
@WebMvcTest(controllers = { RunController.class, IndexController.class })
@SlowTest
class RunControllerBadInputTests extends WebLayerWithStandIns {

	@AfterEach
	void nothingReachedRedis() {
		verifyNoInteractions(this.runs, this.cleaner);
		verify(this.jobs, never()).run(any(), any());
	}

	/**
	 * One dynamic test per case, each making the whole check the parameterized test made:
	 * the answer, then nothing having reached Redis, then the stand-ins reset for the
	 * next case as Spring resets them between tests. As a parameterized test each of the
	 * 2,491 cases paid Spring's per-test work, most of it looking up the cached context
	 * (the key's hash re-reads the classpath for WebMvcTest's includes), about ten times
	 * what its request cost; a dynamic test pays for its request alone.
	 */
	@TestFactory
	Stream<DynamicTest> badInputIsA400ProblemNamingTheParameter() {
		Stream<Arguments> handPicked = HAND_PICKED.lines()
			.map((line) -> line.split("\\|"))
			.map((cells) -> Arguments.of(cells[0].strip(), cells[1].strip()));
		return Stream.concat(handPicked, everyEndpointAndParameter()).map((arguments) -> {
			String uri = (String) arguments.get()[0];
			String parameter = (String) arguments.get()[1];
			return DynamicTest.dynamicTest(uri + " -> " + parameter, () -> {
				try {
					// A wrong answer fails first, under its own message.
					badInputIsA400ProblemNamingTheParameter(uri, parameter);
					nothingReachedRedis();
				}
				finally {
					reset(this.runs, this.jobs, this.events, this.diagnosis, this.settings, this.cleaner);
				}
			});
		});
	}

	/** The cases picked by hand: the URI, then the parameter its problem must name. */
	private static final String HAND_PICKED = """
			/pipeset/abc                            | count
			/pipeset/-1                             | count
			/pipeset/0                              | count
			/pipeset/1.5                            | count
			/pipeset/99999999999999999999           | count
			/pipeset/10000001                       | count
			/loopget/ten                            | count
			/listinput/0                            | count
			/piperpop/-5                            | count
			/pipeset/10?batchSize=0                 | batchSize
			/pipeset/10?batchSize=abc               | batchSize
			/pipeset/10?batchSize=11                | batchSize
			/pipeset/1000000?batchSize=100001       | batchSize
			/piperpop/10?batchSize=2147483648       | batchSize
			/pipeset/10?sample=-1                   | sample
			/pipeset/10?sample=1001                 | sample
			/pipeset/10?sample=x                    | sample
			/pipeset/10?ttl=0                       | ttl
			/pipeset/10?ttl=604801                  | ttl
			/loopset/10?ttl=1.5                     | ttl
			/compare/get/10?ttl=5                   | ttl
			/compare/foo/10                         | op
			/compare/rpush/10                       | op
			/compare/set/0                          | count
			/compare/set/abc                        | count
			/pipeset/10?flushPolicy=sometimes       | flushPolicy
			/pipeset/10?flushPolicy=buffered-0      | flushPolicy
			/loopset/10?flushPolicy=flush-on-close  | flushPolicy
			/pipeset/10?repeat=3                    | repeat
			/pipeset/10?variants=loop               | variants
			/compare/set/10?repeat=0                | repeat
			/compare/set/10?repeat=10               | repeat
			/compare/set/10?repeat=two              | repeat
			/compare/set/10?variants=warp           | variants
			/compare/set/10?variants=pipelined-soon | variants
			/compare/set/10?variants=,              | variants
			/compare/set/10?rtt=0                   | rtt
			/compare/set/10?rtt=-2                  | rtt
			/compare/set/10?rtt=1001                | rtt
			/compare/set/10?rtt=slow                | rtt
			/pipeset/10?ratio=1:10                  | ratio
			/compare/get/10?ratio=1:10              | ratio
			/pipemixed/11?ratio=0:5                 | ratio
			/loopmixed/11?ratio=1:1001              | ratio
			/compare/mixed/11?ratio=abc             | ratio
			/sweep/set/10?batchSizes=0              | batchSizes
			/sweep/set/10?batchSizes=1,x            | batchSizes
			/sweep/set/10?batchSizes=100            | batchSizes
			/sweep/warp/10                          | op
			/compare/ping/10?ttl=5                  | ttl
			/pipeping/0                             | count
			/pipeset/10?valueSize=0                 | valueSize
			/pipeset/10?valueSize=1048577           | valueSize
			/pipehset/10?valueSize=big              | valueSize
			/pipeincr/10?valueSize=16               | valueSize
			/loopping/10?valueSize=16               | valueSize
			/compare/incr/10?valueSize=16           | valueSize
			/compare/get/30?requests=0              | requests
			/compare/get/30?requests=100001         | requests
			/pipeget/1000?requests=10001            | requests
			/loopzadd/abc                           | count
			/compare/lpush/10?ttl=5                 | ttl
			/pipeset/10?pattern=zipf                | pattern
			/compare/get/10?pattern=G               | pattern
			/pipeset/10?keys=0                      | keys
			/loopget/10?keys=10000001               | keys
			/pipeget/10?seed=abc                    | seed
			/pipeset/10?seed=-1                     | seed
			/pipeincr/10?keys=5                     | keys
			/loopping/10?pattern=uniform            | pattern
			/compare/incr/10?seed=7                 | seed
			/compare/ping/10?keys=5                 | keys
			/pipeset/10?keys=5&clients=2            | clients
			""";

	private void badInputIsA400ProblemNamingTheParameter(String uri, String parameter) throws Exception {
		this.mvc.perform(get(uri))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("urn:pipelining-lab:problem:invalid-parameter"))
			.andExpect(jsonPath("$.parameter").value(parameter))
			.andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.startsWith(parameter + " must")))
			.andExpect(jsonPath("$.status").value(400));
	}

	/**
	 * Path endpoints that run one mode, with whether they pipeline and whether they SET.
	 */
	private static final List<String> SINGLE = List.of("pipeset", "pipeget", "piperpop", "pipeping", "loopset",
			"loopget", "looprpop", "loopping", "listinput", "pipeincr", "pipehset", "pipesadd", "pipezadd", "pipelpush",
			"loopincr", "loophset", "loopsadd", "loopzadd", "looplpush", "pipemixed", "loopmixed");

	/** Every way to get a number wrong, in the path or in a query parameter. */
	private static final List<String> NOT_A_COUNT = List.of("abc", "-1", "0", "1.5", "1e3", "0x10", "#10", "%20", "+10",
			"1_000", "١٠", "99999999999999999999", "9223372036854775808", "-9223372036854775809", "10000001");

	/**
	 * The cases above are the hand-picked ones; this is the whole matrix: every endpoint
	 * with every malformed or out-of-range count, every query parameter it takes with
	 * values out of its range or of the wrong type, the parameters it does not take, and
	 * empty path segments. Every one must be a 400 naming the parameter.
	 */
	static Stream<Arguments> everyEndpointAndParameter() {
		List<Arguments> cases = new ArrayList<>();
		List<String> runs = new ArrayList<>();
		SINGLE.forEach((endpoint) -> runs.add("/" + endpoint + "/"));
		for (String op : List.of("set", "get", "rpop", "ping", "incr", "hset", "sadd", "zadd", "lpush")) {
			runs.add("/compare/" + op + "/");
			runs.add("/sweep/" + op + "/");
		}
		for (String run : runs) {
			NOT_A_COUNT.forEach((count) -> cases.add(Arguments.of(run + count, "count")));
			String uri = run + "10";
			boolean single = SINGLE.stream().anyMatch((endpoint) -> run.equals("/" + endpoint + "/"));
			boolean set = run.contains("set");
			boolean pipelined = !single || run.startsWith("/pipe") || run.startsWith("/listinput");
			for (String value : List.of("0", "-1", "abc", "1.5", "2147483648", "100001", "11", "")) {
				if (!value.isEmpty()) {
					cases.add(Arguments.of(uri + "?batchSize=" + value, "batchSize"));
				}
			}
			for (String value : List.of("-1", "1001", "x", "1.5", "2147483648", "0x10")) {
				cases.add(Arguments.of(uri + "?sample=" + value, "sample"));
			}
			for (String value : set ? List.of("0", "-5", "604801", "1.5", "abc", "99999999999999999999")
					: List.of("60")) {
				cases.add(Arguments.of(uri + "?ttl=" + value, "ttl"));
			}
			for (String value : pipelined
					? List.of("sometimes", "buffered-0", "buffered-x", "buffered--1", "buffered-2147483648")
					: List.of("flush-on-close")) {
				cases.add(Arguments.of(uri + "?flushPolicy=" + value, "flushPolicy"));
			}
			for (String value : List.of("0", "-2", "1001", "slow", "NaN", "Infinity", "0x1p3", "1e2")) {
				cases.add(Arguments.of(uri + "?rtt=" + value, "rtt"));
			}
			boolean carriesValues = !run.contains("ping") && !run.contains("incr");
			for (String value : carriesValues ? List.of("0", "-1", "1048577", "abc", "1.5", "2147483648")
					: List.of("16")) {
				cases.add(Arguments.of(uri + "?valueSize=" + value, "valueSize"));
			}
			for (String value : List.of("0", "-1", "100001", "abc", "1.5", "2147483648")) {
				cases.add(Arguments.of(uri + "?requests=" + value, "requests"));
			}
			if (single) {
				cases.add(Arguments.of(uri + "?repeat=3", "repeat"));
				cases.add(Arguments.of(uri + "?variants=loop", "variants"));
				cases.add(Arguments.of(uri + "?batchSizes=1,10", "batchSizes"));
			}
			else {
				for (String value : List.of("0", "10", "two", "-1", "1.5", "2147483648")) {
					cases.add(Arguments.of(uri + "?repeat=" + value, "repeat"));
				}
			}
			if (run.startsWith("/compare")) {
				for (String value : List.of("warp", "pipelined-soon", ",", "loop,warp", "pipelined-buffered-0")) {
					cases.add(Arguments.of(uri + "?variants=" + value, "variants"));
				}
			}
			if (run.startsWith("/sweep")) {
				for (String value : List.of("0", "1,x", "100", "-1", "1.5", "2147483648", ",",
						String.join(",", java.util.Collections.nCopies(21, "1")))) {
					cases.add(Arguments.of(uri + "?batchSizes=" + value, "batchSizes"));
				}
			}
		}
		// (A ";..." after the operation is a matrix variable, which Spring drops:
		// "/compare/set;x/10" is a SET.)
		for (String op : List.of("foo", "rpush", "SETX", "%20", "set%3Bflushall", "*", "0x10")) {
			cases.add(Arguments.of("/compare/" + op + "/10", "op"));
			cases.add(Arguments.of("/sweep/" + op + "/10", "op"));
		}
		// Empty path segments: the count or the operation left out.
		SINGLE.forEach((endpoint) -> {
			cases.add(Arguments.of("/" + endpoint + "/", "count"));
			cases.add(Arguments.of("/" + endpoint, "count"));
		});
		for (String multi : List.of("compare", "sweep")) {
			cases.add(Arguments.of("/" + multi + "/set/", "count"));
			cases.add(Arguments.of("/" + multi + "/set", "count"));
			cases.add(Arguments.of("/" + multi + "/", "op"));
			cases.add(Arguments.of("/" + multi, "op"));
		}
		return cases.stream();
	}

	@Test
	void unknownEndpointIsA404Problem() throws Exception {
		this.mvc.perform(get("/pipeflushall/10"))
			.andExpect(status().isNotFound())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));
	}

}
