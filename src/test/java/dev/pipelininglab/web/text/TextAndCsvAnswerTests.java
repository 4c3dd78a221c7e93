package dev.pipelininglab.web.text;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.JobsOnTestRedis;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The terminal's answers over real HTTP: {@code Accept: text/plain} gives an aligned
 * table with a summary line, {@code text/csv} a CSV, JSON stays the default; finished
 * runs download as JSON, CSV, Markdown and text; two runs side by side with ratios.
 */
@SlowTest
class TextAndCsvAnswerTests extends JobsOnTestRedis {

	@Test
	void compareAnswersAnAlignedTableWithASummaryLineForTextPlain() throws Exception {
		HttpResponse<String> text = get(
				"/compare/set/3000?variants=loop,pipelined,multi-key&batchSize=500&repeat=3&columns=all", "text/plain");
		assertThat(text.statusCode()).isEqualTo(200);
		assertThat(text.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
		List<String> lines = text.body().lines().toList();
		System.out.println("[text] " + text.body());
		assertThat(lines.get(0)).isEqualTo("compare SET, 3,000 commands on standalone");
		// The answer first, then the figures.
		assertThat(lines.get(2)).startsWith("executePipelined with one line of configuration (pipelined-buffered-500)");
		String header = table(text.body()).get(0);
		assertThat(header).startsWith("variant").contains("ops/s", "speedup", "min ms", "max ms", "rtt ms");
		List<String> rows = table(text.body()).subList(1, 4);
		assertThat(rows).extracting((line) -> line.split(" +")[0])
			.containsExactly("loop", "pipelined-buffered-500", "multi-key");
		// Aligned: every row as long as the header, numbers ending in the same column.
		assertThat(rows).allSatisfy((line) -> assertThat(line.length())
			.isEqualTo(header.stripTrailing().length() - "checked".length() + "3,000 verified".length()));
		assertThat(rows.get(0)).contains(" 1x ");
		assertThat(rows.get(1)).containsPattern(" \\d+(\\.\\d{1,2})?x ");
		assertThat(text.body().replaceAll("\\s+", " ")).contains("summary: SET ", "commands in", "ops/s",
				"The loop's own commands took");
		// Every figure the page shows: the server's side per item and latency.
		assertThat(header).contains("server reads/item", "server cpu µs/item", "latency per", "p50 ms", "p99.9 ms");
		assertThat(text.body()).doesNotContain("{", "\"");
	}

	@Test
	void textPlainFitsAHundredColumnsByDefaultAndEveryOtherColumnIsOneParameterAway() throws Exception {
		// 10,000 commands: as wide in every cell as 20,000 (the count's digits, whole
		// default batches of 10,000 for the per-batch latencies) at half the work.
		HttpResponse<String> text = get("/compare/set/10000", "text/plain");
		assertThat(text.statusCode()).as(text.body()).isEqualTo(200);
		System.out.println("[text] " + text.body());
		assertThat(text.body().lines())
			.allSatisfy((line) -> assertThat(line.length()).as(line).isLessThanOrEqualTo(100));
		List<String> lines = text.body().lines().toList();
		// Every variant's latency cell says per what: limited stays where the table
		// still fits, and its lines under the table say it anyway.
		List<String> header = List.of(table(text.body()).get(0).split(" {2,}"));
		assertThat(header.stream().filter((name) -> !name.equals("limited"))).containsExactly("variant", "ops/s",
				"speedup", "p50/p99 ms", "checked");
		assertThat(text.body()).contains("\nlimited by: loop: ");
		assertThat(table(text.body()).get(1)).startsWith("loop ")
			.endsWith("10,000 verified")
			.containsPattern(" 1x +[0-9.]+/[0-9.]+ per command ");
		assertThat(text.body()).contains("summary: SET ");
		HttpResponse<String> two = get("/compare/set/10000?variants=loop,pipelined", "text/plain");
		assertThat(table(two.body()).get(0).split(" {2,}")).containsExactly("variant", "ops/s", "speedup", "p50/p99 ms",
				"limited", "checked");

		// Reads say hits and misses: what held each run back then stays in the lines
		// under
		// the table, and the table still fits.
		HttpResponse<String> reads = get("/compare/get/10000", "text/plain");
		assertThat(reads.body().lines())
			.allSatisfy((line) -> assertThat(line.length()).as(line).isLessThanOrEqualTo(100));
		assertThat(reads.body()).contains("\nlimited by: loop: ");

		HttpResponse<String> sweep = get("/sweep/set/2000?batchSizes=10,100", "text/plain");
		assertThat(sweep.body().lines().toList().get(2).split(" {2,}")).containsExactly("variant", "batch", "ops/s",
				"p50/p99 ms", "limited", "checked");
		assertThat(sweep.body().lines()).allSatisfy((line) -> assertThat(line.length()).isLessThanOrEqualTo(100));

		HttpResponse<String> chosen = get("/pipeset/100?columns=variant,round-trips,server-cpu-us/item", "text/plain");
		assertThat(chosen.body().lines().toList().get(2).split(" {2,}")).containsExactly("variant", "round trips",
				"server cpu µs/item");
		HttpResponse<String> typo = get("/pipeset/100?columns=variant,opps/s", "text/plain");
		assertThat(typo.statusCode()).isEqualTo(400);
		assertThat(JsonPath.parse(typo.body()).read("$.parameter", String.class)).isEqualTo("columns");
		assertThat(JsonPath.parse(typo.body()).read("$.detail", String.class)).contains("'opps/s'", "ops/s");
	}

	/**
	 * A title counts the commands that ran (a fan-out's count times its requests) and
	 * names an added RTT; each latency cell says what one sample was; a sweep's lines
	 * name their batch size.
	 */
	@Test
	void textSaysWhatRanWhatALatencyWasTakenPerAndWhichBatchALineIsAbout() {
		String fanOutText = get("/compare/get/30?requests=200&variants=loop,pipelined", "text/plain").body();
		assertThat(fanOutText.lines().toList().get(0))
			.isEqualTo("compare GET, 6,000 commands (30 x 200 requests) on standalone");
		assertThat(table(fanOutText).subList(1, 3)).allSatisfy((row) -> assertThat(row).contains(" per request "));
		assertThat(get("/pipeping/100?rtt=1", "text/plain").body())
			.startsWith("PING pipelined-buffered-500, 100 commands on standalone, 1 ms RTT added\n");
		List<String> rows = table(get("/compare/set/2000?variants=loop,pipelined", "text/plain").body());
		assertThat(rows.get(1)).startsWith("loop ").contains(" per command ");
		assertThat(rows.get(2)).startsWith("pipelined-buffered-500 ").contains(" per batch ");
		List<String> limited = get("/sweep/set/2000?batchSizes=10,100", "text/plain").body()
			.lines()
			.filter((line) -> line.startsWith("limited by: "))
			.toList();
		assertThat(limited).extracting((line) -> line.substring(0, line.indexOf(": ", 12) + 2))
			.containsExactly("limited by: pipelined-buffered-500 (batch 10): ",
					"limited by: pipelined-buffered-500 (batch 100): ");
	}

	@Test
	void csvNumbersCarryThePrecisionTheJsonShowsNotTheDoublesDigits() throws Exception {
		HttpResponse<String> csv = get("/compare/set/2000?variants=loop,pipelined,multi-key&repeat=2", "text/csv");
		assertThat(csv.statusCode()).isEqualTo(200);
		List<String> cells = csv.body()
			.lines()
			.skip(1)
			.flatMap((line) -> java.util.Arrays.stream(line.split(",")))
			.filter((cell) -> cell.matches("-?[0-9]+\\.[0-9]+"))
			.toList();
		assertThat(cells).isNotEmpty()
			.allSatisfy((cell) -> assertThat(new java.math.BigDecimal(cell)).as(cell)
				.satisfiesAnyOf((number) -> assertThat(number.scale()).isLessThanOrEqualTo(3),
						(number) -> assertThat(number.precision()).isLessThanOrEqualTo(4)));
	}

	@Test
	void csvHasOneHeaderAndOneLinePerResultAndJsonStaysTheDefault() throws Exception {
		HttpResponse<String> csv = get("/sweep/get/2000?batchSizes=1,10,100", "text/csv");
		assertThat(csv.statusCode()).isEqualTo(200);
		assertThat(csv.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/csv");
		List<String> lines = csv.body().lines().toList();
		assertThat(lines).hasSize(4);
		List<String> header = List.of(lines.get(0).split(","));
		assertThat(header).startsWith("operation", "count", "topology", "variant", "batch")
			.contains("ops/s", "elapsed ms");
		// Cells holding a comma are quoted.
		assertThat(lines.subList(1, 4)).allSatisfy(
				(line) -> assertThat(line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1)).hasSize(header.size()));
		assertThat(lines.get(1)).startsWith("get,2000,standalone,pipelined-");
		assertThat(lines.subList(1, 4)).extracting((line) -> line.split(",")[4]).containsExactly("1", "10", "100");

		HttpResponse<String> single = get("/pipeping/100", "text/csv");
		assertThat(single.body().lines()).hasSize(2);
		HttpResponse<String> plain = get("/pipeping/100", "text/plain");
		assertThat(plain.body()).startsWith("PING pipelined-buffered-500, 100 commands on standalone");

		for (String accept : new String[] { null, "*/*", "application/json" }) {
			HttpResponse<String> json = get("/pipeping/100", accept);
			assertThat(json.headers().firstValue("Content-Type").orElseThrow()).as(accept)
				.startsWith("application/json");
			assertThat(JsonPath.parse(json.body()).read("$.pongs", Long.class)).isEqualTo(100);
		}
		// Problems stay problem+json whatever format the results were asked in: a client
		// reads an error the same way from every endpoint.
		HttpResponse<String> bad = get("/pipeset/0", "text/plain");
		assertThat(bad.statusCode()).isEqualTo(400);
		assertThat(bad.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
		assertThat(JsonPath.parse(bad.body()).read("$.parameter", String.class)).isEqualTo("count");
	}

	@Test
	void finishedRunsDownloadInEveryFormatAndTwoRunsCompareWithRatios() throws Exception {
		String a = runToTheEnd("""
				{"kind": "compare", "operation": "set", "count": 2000, "batchSize": 100,
				 "variants": ["loop", "pipelined"]}""");
		String b = runToTheEnd("""
				{"kind": "compare", "operation": "set", "count": 2000, "batchSize": 1000,
				 "variants": ["loop", "pipelined", "multi-key"]}""");

		HttpResponse<String> csv = get("/runs/" + a + "/report.csv", null);
		assertThat(csv.statusCode()).isEqualTo(200);
		assertThat(csv.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/csv");
		assertThat(csv.headers().firstValue("Content-Disposition").orElseThrow())
			.isEqualTo("attachment; filename=\"pipelining-lab-compare-set-2000-" + a.substring(0, 8) + ".csv\"");
		assertThat(csv.body().lines()).hasSize(3);
		HttpResponse<String> markdown = get("/runs/" + a + "/report.md", null);
		assertThat(markdown.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/markdown");
		assertThat(markdown.body()).startsWith("### compare SET, 2,000 commands · DONE · run " + a)
			.contains("| variant | batch |", "| --- | ---: |", "| loop | 1 |", "summary: ");
		HttpResponse<String> json = get("/runs/" + a + "/report.json", null);
		assertThat(JsonPath.parse(json.body()).read("$.results.length()", Integer.class)).isEqualTo(2);
		assertThat(get("/runs/" + a + "/report.exe", null).statusCode()).isEqualTo(400);
		assertThat(get("/runs/" + a, "text/plain").body()).contains("summary: SET ");

		HttpResponse<String> pair = get("/runs/compare?a=" + a + "&b=" + b, null);
		assertThat(pair.statusCode()).isEqualTo(200);
		DocumentContext doc = JsonPath.parse(pair.body());
		assertThat(doc.read("$.a.id", String.class)).isEqualTo(a);
		assertThat(doc.read("$.rows[*].variant", List.class)).containsExactly("loop", "pipelined-buffered-500",
				"pipelined-buffered-500", "multi-key");
		double aLoop = doc.read("$.rows[0].aOpsPerSecond", Double.class);
		double bLoop = doc.read("$.rows[0].bOpsPerSecond", Double.class);
		assertThat(doc.read("$.rows[0].opsRatio", Double.class)).isCloseTo(bLoop / aLoop,
				org.assertj.core.data.Percentage.withPercentage(0.5));
		// Batch sizes differ, so the pipelined rows do not pair: each side alone, no
		// ratio.
		assertThat(doc.read("$.rows[1]", java.util.Map.class)).containsKey("aOpsPerSecond")
			.doesNotContainKeys("bOpsPerSecond", "opsRatio");
		assertThat(doc.read("$.warnings[0]", String.class))
			.startsWith("These runs differ in variants (A: loop, pipelined");
		HttpResponse<String> pairText = get("/runs/compare?a=" + a + "&b=" + b, "text/plain");
		assertThat(pairText.body()).startsWith("A: compare SET")
			.contains("\nB: compare SET", "B/A ops/s", "\nwarning: These runs differ in variants");
		assertThat(get("/runs/compare?a=" + a + "&b=5e2c1d55-0000-4000-8000-00000000ffff", null).statusCode())
			.isEqualTo(404);
		assertThat(get("/runs/compare?a=" + a, null).statusCode()).isEqualTo(400);
	}

	private String runToTheEnd(String body) throws Exception {
		HttpResponse<String> started = http().postJson("/runs", body);
		assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
		String id = JsonPath.parse(started.body()).read("$.id", String.class);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> JsonPath.parse(get("/runs/" + id, null).body()).read("$.status", String.class),
					"DONE"::equals);
		return id;
	}

	private HttpResponse<String> get(String path, @Nullable String accept) {
		return http().get(path, accept);
	}

	/** A comparison's text from its table's header on: its summary comes first. */
	private static List<String> table(String body) {
		List<String> lines = body.lines().toList();
		int header = lines
			.indexOf(lines.stream().filter((line) -> line.startsWith("variant ")).findFirst().orElseThrow());
		return lines.subList(header, lines.size());
	}

}
