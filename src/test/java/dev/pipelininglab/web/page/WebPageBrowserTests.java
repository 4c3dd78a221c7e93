package dev.pipelininglab.web.page;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.pipelininglab.testsupport.Flood;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The page at {@code /} in a real headless Chromium: start runs from the form, watch the
 * progress move through its phases to 100%, see the table and the chart, the run in the
 * history, exports that download, cancel during set-up, and the same results at 390 px
 * without sideways scrolling. Screenshots go to {@code target/screenshots};
 * {@code -Dlab.screenshots=docs} also takes those of the README and docs/web-and-jobs.md
 * (a 1M compare and a sweep).
 */
@SlowTest
class WebPageBrowserTests extends BrowserOnTestRedis {

	@Test
	void comparisonRunsFromTheFormWithProgressTableAndBarChart() throws Exception {
		open("compare", "count", "15000", "batchSize", "1000");
		chromium.tickOnly("loop", "pipelined-flush-on-close", "multi-key", "async");
		run();

		Set<Integer> progress = new TreeSet<>();
		Set<String> phases = new TreeSet<>();
		Set<String> listed = new TreeSet<>();
		new WebDriverWait(chromium.driver, Duration.ofSeconds(90)).pollingEvery(Duration.ofMillis(25))
			.until((driver) -> {
				// One look in the page for the bar, the history's row, the status
				// line and its state: one driver round trip a poll rather than seven,
				// so the two cores are spared and the looks come closer together. The
				// history's rows are replaced as it reloads: read in the page.
				@SuppressWarnings("unchecked")
				List<Object> seen = (List<Object>) js(
						"""
								const cell = document.querySelector('#history tr.current .progress-cell');
								const status = document.getElementById('status');
								return [document.getElementById('progress').getAttribute('aria-valuenow'),
								  cell ? cell.textContent : '', status.innerText.trim(), status.getAttribute('data-status')];""");
				progress.add(Integer.parseInt(String.valueOf(seen.get(0))));
				listed.add(String.valueOf(seen.get(1)));
				String line = String.valueOf(seen.get(2));
				if (line.startsWith("RUNNING")) {
					phases.add(line.split(" · ")[2]);
				}
				return "DONE".equals(seen.get(3)) && results().isDisplayed();
			});
		progress.add(Integer.parseInt(attribute("progress", "aria-valuenow")));
		assertThat(progress).contains(100);
		assertThat(progress).as("the bar moved through values between 0 and 100, %s", progress)
			.anySatisfy((value) -> assertThat(value).isStrictlyBetween(0, 100));
		assertThat(phases).as("phases seen").anySatisfy((phase) -> assertThat(phase).startsWith("timing "));
		// The history's row of the run moves with it, rather than staying at 0% until the
		// end.
		assertThat(listed).as("the history's progress of the run")
			.anySatisfy((cell) -> assertThat(cell).matches("[0-9]+%").isNotIn("0%", "100%"));
		assertThat(chromium.text("status")).startsWith("DONE").contains("elapsed");

		List<List<String>> rows = chromium.tableRows("#results-table");
		assertThat(rows).extracting((row) -> row.get(0))
			.containsExactly("loop", "pipelined-flush-on-close", "multi-key", "async");
		assertThat(headers()).containsExactly("Variant", "Batch size", "Round trips", "Elapsed ms", "ops/s", "Speedup",
				"RTT ms", "Server reads/item", "Server CPU µs/item", "Checked");
		assertThat(rows.get(0).get(5)).isEqualTo("1×");
		assertThat(rows).allSatisfy((row) -> assertThat(row.get(5)).matches("[0-9.,]+×"));
		assertThat(rows).allSatisfy((row) -> assertThat(row.get(9)).isEqualTo("15,000 verified"));
		// What held each variant back, a line each.
		assertThat(String.valueOf(js("return document.getElementById('limited-by').innerText;")).lines()).hasSize(4)
			.allSatisfy((line) -> assertThat(line).containsPattern("^[a-z0-9-]+( \\(batch [0-9]+\\))?: [a-z-]+: "));
		assertThat(chromium.text("context")).contains("Redis ", "connector lettuce")
			.doesNotContain("another client", "round trip");
		// Redis' memory and key count before and after the run: the comparison left its
		// 15,000 keys.
		assertThat(chromium.text("context"))
			.containsPattern("Redis before the run: [0-9,]+ keys, [0-9.]+ MB; after it:" + " [0-9,]+ keys, [0-9.]+ MB");
		// (and the job's own record and run list).
		assertThat(chromium.text("context")).containsPattern("after it: 15,00[0-9] keys");
		assertThat(chromium.text("comparison-summary")).contains(
				"executePipelined with one line of configuration (pipelined-flush-on-close) ran ",
				"The loop's own commands took");

		assertThat(chart("type")).isEqualTo("bar");
		assertThat(chart("indexAxis")).isEqualTo("y");
		assertThat(chart("labels").split(",")).containsExactlyInAnyOrder("loop", "pipelined-flush-on-close",
				"multi-key", "async");
		assertThat(chart("sortedDescending")).isEqualTo("true");
		assertThat(chart("datasets")).isEqualTo("ops/s");
		assertThat(chart("title")).contains("ops/s");
		assertThat(paintedPixels()).as("the chart drew bars").isGreaterThan(1000);
		// ops/s over the run's time, from the progress stream the page followed.
		assertThat(((Number) js("return Chart.getChart('timeline-chart').data.datasets[0].data.length")).intValue())
			.isGreaterThan(3);
		assertThat(painted("timeline-chart")).isGreaterThan(200);

		// Latency percentiles beside throughput: one row per variant, on a log axis.
		List<List<String>> latency = chromium.tableRows("#latency-table");
		assertThat(latency).extracting((row) -> row.get(0))
			.containsExactly("loop", "pipelined-flush-on-close", "multi-key", "async");
		assertThat(latency).extracting((row) -> row.get(1)).containsExactly("command", "batch", "batch", "batch");
		assertThat(js("return Chart.getChart('latency-chart').options.plugins.title.text")).asString()
			.startsWith("Latency per item, ms");

		// What the server did, per variant: socket calls and CPU per item, one unit per
		// chart.
		assertThat(serverChart("server-calls-chart", "title"))
			.isEqualTo("Server socket calls per item (lower is better)");
		assertThat(serverChart("server-calls-chart", "datasets")).isEqualTo("reads per item|writes per item");
		assertThat(serverChart("server-calls-chart", "axis")).contains("calls per item");
		assertThat(serverChart("server-calls-chart", "labels").split(",")).containsExactly("loop",
				"pipelined-flush-on-close", "multi-key", "async");
		// About one read per item for the loop, far fewer for a pipeline.
		String[] reads = serverChart("server-calls-chart", "first").split(",");
		assertThat(Double.parseDouble(reads[0])).isBetween(0.9, 1.1);
		assertThat(Double.parseDouble(reads[1])).isLessThan(0.1);
		// One unit: the table's multi-key figure is the chart's, per item sent, not per
		// MSET.
		assertThat(Double.parseDouble(rows.get(2).get(7).replace(",", ""))).isCloseTo(Double.parseDouble(reads[2]),
				withinPercentage(1));
		assertThat(serverChart("server-cpu-chart", "title")).startsWith("Server CPU per item, µs");
		assertThat(serverChart("server-cpu-chart", "axis")).contains("CPU µs per item");
		assertThat(serverChart("server-cpu-chart", "first").split(",")).hasSize(4)
			.allSatisfy((value) -> assertThat(Double.parseDouble(value)).isPositive());
		assertThat(painted("server-cpu-chart")).as("the server chart drew bars").isGreaterThan(1000);

		chromium.waitFor(Duration.ofSeconds(20), () -> !chromium.tableRows("#history").isEmpty());
		assertThat(chromium.tableRows("#history").get(0)).contains("compare", "SET", "15,000", "DONE", "100%");
		chromium.screenshot(HeadlessChromium.SCREENSHOTS.resolve("web-page-compare.png"));
	}

	@Test
	void sweepShowsThroughputAgainstBatchSizeWithTheLoopCeilingAsBaseline() throws Exception {
		open("sweep", "operation", "get", "count", "10000", "batchSizes", "1,10,100,1000,10000");
		run();

		assertThat(chromium.waitForEnd(Duration.ofSeconds(90))).isEqualTo("DONE");
		assertThat(chromium.tableRows("#results-table")).extracting((row) -> row.get(1))
			.containsExactly("1", "10", "100", "1,000", "10,000");
		assertThat(chart("type")).isEqualTo("line");
		assertThat(chart("points")).isEqualTo("1,10,100,1000,10000");
		assertThat(chart("datasets")).startsWith("pipelined ops/s|loop at best (1/RTT = ");
		assertThat(chromium.text("comparison-summary")).startsWith("Fastest at batch size ")
			.contains("× batch size 1 (");
		// Batch size 1 stands in for the loop: the sentence's bound and the chart's
		// baseline are one figure, from that run's own round trips.
		Matcher sentence = Pattern
			.compile("At batch size 1, [a-z0-9-]+'s own commands took .* cannot beat ([0-9,]+) ops/s")
			.matcher(chromium.text("comparison-summary"));
		if (sentence.find()) {
			assertThat(chart("datasets")).contains("(1/RTT = " + sentence.group(1) + " ops/s)");
		}
		else {
			assertThat(chromium.text("comparison-summary")).contains("bounds nothing here");
		}
		assertThat(paintedPixels()).isGreaterThan(200);
		chromium.screenshot(HeadlessChromium.SCREENSHOTS.resolve("web-page-sweep.png"));
	}

	@Test
	void badInputIsExplainedNextToTheFieldInTheServersWords() throws Exception {
		open();
		// The page names its icon, and the app serves it: no 404 on every load.
		String icon = chromium.driver.findElement(By.cssSelector("link[rel=icon]")).getDomAttribute("href");
		assertThat(http().get(icon).statusCode()).isEqualTo(200);
		chromium.chooseKind("single");
		chromium.setField("count", "0");
		assertThat(fieldError("count")).isEqualTo("count must be between 1 and 10000000, got 0");
		assertThat(attribute("count", "aria-invalid")).isEqualTo("true");
		chromium.setField("count", "1.5");
		assertThat(fieldError("count")).isEqualTo("count must be a whole number between 1 and 10000000, got '1.5'");

		chromium.chooseKind("sweep");
		chromium.setField("count", "1000");
		assertThat(attribute("count", "aria-invalid")).isNull();
		chromium.setField("batchSizes", "1,abc");
		assertThat(fieldError("batchSizes")).isEqualTo("batchSizes must be whole numbers, got 'abc'");
		assertThat(chromium.text("run-form")).contains("1 to 10,000,000", "1 to 100,000");

		// What only the server can tell (a batch larger than the count) lands beside the
		// field too.
		chromium.chooseKind("single");
		chromium.setField("batchSize", "5000");
		run();
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("problem")).isDisplayed());
		assertThat(chromium.text("problem")).contains("batchSize must not be larger than count (1000)");
		assertThat(fieldError("batchSize")).contains("batchSize must not be larger than count (1000)");
		assertThat(attribute("batchSize", "aria-invalid")).isEqualTo("true");
		assertThat(chromium.driver.findElement(By.id("run-button")).isEnabled()).isTrue();
	}

	@Test
	void theRatioFieldShowsForMixedOnlyAndRunsTheMixTyped() throws Exception {
		open("single");
		assertThat(chromium.driver.findElement(By.id("ratio")).isDisplayed()).isFalse();
		chromium.select("operation", "mixed");
		assertThat(chromium.driver.findElement(By.id("ratio")).isDisplayed()).isTrue();
		// The field's hint comes from the parameter catalogue.
		assertThat(attribute("ratio", "placeholder")).isEqualTo("default 1:10");
		chromium.fill("count", "1100", "batchSize", "110", "ratio", "1:x");
		run();
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("problem")).isDisplayed());
		assertThat(chromium.text("problem")).contains("ratio must be W:R");
		assertThat(attribute("ratio", "aria-invalid")).isEqualTo("true");
		chromium.setField("ratio", "1:10");
		runToTheEnd(Duration.ofSeconds(60));
		assertThat(chromium.text("results-summary")).contains("1,100 commands");
	}

	@Test
	void numberFieldsRunExactlyWhatWasTypedOrRefuseToRun() throws Exception {
		open("single");
		for (String typed : List.of("10k", "１００", "1e3", "0x10")) {
			chromium.setField("count", typed);
			assertThat(fieldError("count")).as(typed)
				.isEqualTo("count must be a whole number between 1 and 10000000, got '" + typed + "'");
			run();
			// Refused: nothing was sent, and the field is focused with its message in
			// view.
			assertThat(attribute("status", "data-status")).isEqualTo("IDLE");
			assertThat(js("return document.activeElement.id")).isEqualTo("count");
			assertThat(inView("count-error")).isTrue();
		}
		chromium.fill("count", "2000", "batchSize", "abc");
		assertThat(fieldError("batchSize"))
			.isEqualTo("batchSize must be a whole number between 1 and 100000, got 'abc'");
		run();
		assertThat(attribute("status", "data-status")).isEqualTo("IDLE");
		chromium.setField("batchSize", "500");
		assertThat(chromium.driver.findElements(By.cssSelector("[aria-invalid=true]"))).isEmpty();
		runUntilDone(Duration.ofSeconds(60));
		assertThat(chromium.text("results-summary")).contains("2,000 commands");
		assertThat(chromium.tableRows("#results-table").get(0).get(1)).isEqualTo("500");
	}

	@Test
	void theLoopCeilingComesFromTheLoopsOwnRoundTripsAndItsFigureNeverBreaksIt() throws Exception {
		open("compare", "count", "5000", "batchSize", "1000");
		chromium.tickOnly("loop", "pipelined-flush-on-close");
		runUntilDone(Duration.ofSeconds(60));
		String sentence = chromium.text("comparison-summary");
		System.out.println("[browser] loop ceiling: " + sentence);
		double p50 = Double.parseDouble(chromium.tableRows("#latency-table").get(0).get(3));
		Matcher bound = Pattern
			.compile("The loop's own commands took ([0-9.]+) ms each \\(median round trip\\), so a loop on one"
					+ " connection cannot beat ([0-9,]+) ops/s; it ran at ([0-9,]+)\\.")
			.matcher(sentence);
		if (bound.find()) {
			// The round trip is the loop's own median, as in the latency table, and the
			// loop's figure stays within the bound it implies.
			assertThat(Double.parseDouble(bound.group(1))).isCloseTo(p50, within(0.0006));
			assertThat(whole(bound.group(3))).isLessThanOrEqualTo(whole(bound.group(2)));
			assertThat(whole(bound.group(3))).isEqualTo(whole(chromium.tableRows("#results-table").get(0).get(4)));
		}
		else {
			// Or it says the measures disagree, and prints no bound.
			assertThat(sentence).contains("bounds nothing here").doesNotContain("cannot beat");
		}
		assertThat(chromium.text("context")).doesNotContain("cannot beat");
		// The text download says the same (wrapped at 100 columns).
		String text = http().get("/runs/" + results().getDomAttribute("data-id") + "/report.txt").body();
		assertThat(text.replaceAll("\\s+", " ")).contains(sentence.substring(sentence.indexOf("The loop's own")));
	}

	@Test
	void aPastRunOpensFromTheKeyboardAndEachTickBoxNamesItsRun() throws Exception {
		open("single", "count", "1000");
		runUntilDone(Duration.ofSeconds(60));
		String id = results().getDomAttribute("data-id");
		open();
		chromium.waitFor(Duration.ofSeconds(20), () -> !chromium.tableRows("#history").isEmpty());
		WebElement link = chromium.driver.findElement(By.cssSelector("#history tbody tr[data-id='" + id + "'] a"));
		assertThat(link.getDomAttribute("href")).isEqualTo("/?run=" + id);
		assertThat(link.getDomAttribute("aria-label")).contains("single SET pipelined, 1,000", "DONE");
		assertThat(chromium.driver.findElement(By.cssSelector("#history input[name=pick][value='" + id + "']"))
			.getDomAttribute("aria-label")).startsWith("Pick the run of ").contains("single SET pipelined, 1,000");
		// Tab reaches the link (it is focusable) and Enter opens the run.
		js("arguments[0].focus()", link);
		assertThat(js("return document.activeElement === arguments[0]", link)).isEqualTo(true);
		link.sendKeys(Keys.ENTER);
		chromium.waitFor(Duration.ofSeconds(20), () -> results().isDisplayed());
		assertThat(results().getDomAttribute("data-id")).isEqualTo(id);
	}

	@Test
	void progressIsAnnouncedToScreenReadersAndItsPercentageReadsAtFourAndAHalfToOne() throws Exception {
		open("single", "count", "1000");
		runUntilDone(Duration.ofSeconds(60));
		// The percentage over the full (green) bar: its contrast with what is right
		// behind it.
		double contrast = ((Number) js("""
				const text = document.getElementById('progress-text');
				const rgb = (css) => css.match(/[0-9.]+/g).map(Number);
				let behind = null;
				for (let e = text; e && e.id !== 'progress'; e = e.parentElement) {
				  const bg = rgb(getComputedStyle(e).backgroundColor);
				  if (bg.length < 4 || bg[3] > 0) { behind = bg; break; }
				}
				behind = behind || rgb(getComputedStyle(document.getElementById('progress-bar')).backgroundColor);
				const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255;
				  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
				  return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
				const a = lum(rgb(getComputedStyle(text).color)), b = lum(behind);
				return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);""")).doubleValue();
		System.out.println("[browser] progress percentage contrast " + contrast + ":1");
		assertThat(contrast).isGreaterThanOrEqualTo(4.5);
		// A polite live region says where the run is (the status line changes too often
		// to be one).
		WebElement announcer = chromium.driver.findElement(By.id("announcer"));
		assertThat(announcer.getDomAttribute("role")).isEqualTo("status");
		assertThat(announcer.getDomAttribute("aria-live")).isEqualTo("polite");
		assertThat(announcer.getDomProperty("textContent")).startsWith("Run finished. ");
	}

	@Test
	void at390PixelsTheProblemAndTheProgressComeIntoViewAfterRun() throws Exception {
		chromium.driver.manage().window().setSize(new Dimension(390, 844));
		open("single", "count", "100", "batchSize", "500");
		js("document.getElementById('run-button').scrollIntoView({block: 'center'})");
		run();
		// The server's answer, beside the field it names, which has the focus: in view,
		// not below the fold.
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("problem")).isDisplayed());
		assertThat(fieldError("batchSize")).contains("must not be larger than count (100)");
		chromium.waitFor(Duration.ofSeconds(5), () -> inView("batchSize-error"));
		assertThat(js("return document.activeElement.id")).isEqualTo("batchSize");

		chromium.fill("batchSize", "", "count", "3000");
		js("document.getElementById('run-button').scrollIntoView({block: 'center'})");
		run();
		chromium.waitFor(Duration.ofSeconds(5), () -> inView("progress") && inView("status"));
		assertThat(chromium.waitForEnd(Duration.ofSeconds(60))).isEqualTo("DONE");
	}

	@Test
	void rateAndDurationFromTheFormPaceTheLoopAndEndItByTime() throws Exception {
		open("single", "mode", "loop", "count", "100000");
		assertThat(chromium.text("run-form")).contains("1 to 300");
		chromium.setField("rate", "abc");
		assertThat(fieldError("rate")).isEqualTo("rate must be a whole number between 1 and 10000000, got 'abc'");
		chromium.setField("duration", "0");
		assertThat(fieldError("duration")).isEqualTo("duration must be between 1 and 300, got 0");
		chromium.fill("rate", "500", "duration", "2");
		assertThat(chromium.driver.findElements(By.cssSelector("[aria-invalid=true]"))).isEmpty();
		runUntilDone(Duration.ofSeconds(90));
		assertThat(chromium.text("results-summary"))
			.contains("100,000 commands or 2 s, whichever comes first at 500 commands/s");
		List<String> row = chromium.tableRows("#results-table").get(0);
		// 500 a second for two seconds: the time limit ends the run near 1,000 commands.
		String ran = row.get(headers().indexOf("Commands ran"));
		assertThat(ran).endsWith(" (time up)");
		assertThat(whole(ran.replace(" (time up)", ""))).isBetween(900L, 1000L);
	}

	@Test
	void keyPatternFieldsShowForSetAndGetAndWalkTheKeysTyped() throws Exception {
		open("single", "operation", "ping");
		assertThat(chromium.driver.findElement(By.id("pattern")).isDisplayed()).isFalse();
		chromium.select("operation", "set");
		assertThat(chromium.driver.findElement(By.id("pattern")).isDisplayed()).isTrue();
		chromium.fill("mode", "pipelined", "count", "3000", "keys", "0");
		assertThat(fieldError("keys")).startsWith("keys must be between 1 and ");
		chromium.fill("keys", "500", "pattern", "gaussian", "seed", "7");
		assertThat(chromium.driver.findElements(By.cssSelector("[aria-invalid=true]"))).isEmpty();
		runUntilDone(Duration.ofSeconds(90));
		assertThat(chromium.text("results-summary")).contains("3,000 commands over 500 keys, gaussian (seed 7)");
	}

	@Test
	void anAddedRoundTripFromTheFormSlowsTheLoopAndIsShownWithItsResult() throws Exception {
		open("single", "mode", "loop", "count", "200");
		assertThat(chromium.text("run-form")).contains("0.001 to 1,000");
		chromium.setField("rtt", "abc");
		assertThat(fieldError("rtt"))
			.isEqualTo("rtt must be a number of milliseconds between 0.001 and 1000, got 'abc'");
		chromium.setField("rtt", "2");
		runUntilDone(Duration.ofSeconds(60));
		assertThat(headers()).contains("Added RTT ms");
		List<String> row = chromium.tableRows("#results-table").get(0);
		assertThat(row.get(headers().indexOf("Added RTT ms"))).isEqualTo("2");
		// Two added milliseconds per command: a loop cannot pass 500 ops/s.
		assertThat(whole(row.get(headers().indexOf("ops/s")))).isLessThan(500);
	}

	@Test
	void aPastRunsSettingsLoadBackIntoTheFormAndTwoRunsSideBySideAreNamedByWhatTheyRan() throws Exception {
		open("compare", "count", "2000", "batchSize", "500", "repeat", "2");
		chromium.tickOnly("loop", "pipelined-buffered-500-per-flush");
		runUntilDone(Duration.ofSeconds(60));
		assertThat(chromium.tableRows("#results-table")).extracting((row) -> row.get(0))
			.containsExactly("loop", "pipelined-buffered-500-per-flush");
		open();
		chromium.setField("count", "100");
		chromium.tickOnly("async");
		chromium.waitFor(Duration.ofSeconds(20), () -> !chromium.tableRows("#history").isEmpty());
		chromium.driver.findElement(By.cssSelector("#history tbody tr a")).click();
		chromium.waitFor(Duration.ofSeconds(20), () -> results().isDisplayed());
		chromium.driver.findElement(By.id("run-again")).click();
		assertThat(chromium.driver.findElement(By.id("count")).getDomProperty("value")).isEqualTo("2000");
		assertThat(chromium.driver.findElement(By.id("batchSize")).getDomProperty("value")).isEqualTo("500");
		assertThat(chromium.driver.findElement(By.id("repeat")).getDomProperty("value")).isEqualTo("2");
		assertThat(chromium.driver.findElements(By.cssSelector("input[name=variants]:checked")))
			.extracting((box) -> box.getDomAttribute("value"))
			.containsExactly("loop", "pipelined-buffered-500-per-flush");
		runToTheEnd(Duration.ofSeconds(60));

		chromium.waitFor(Duration.ofSeconds(20),
				() -> chromium.driver.findElements(By.cssSelector("#history input[name=pick]")).size() >= 2);
		chromium.driver.findElements(By.cssSelector("#history input[name=pick]"))
			.stream()
			.limit(2)
			.forEach(WebElement::click);
		chromium.driver.findElement(By.id("compare-picked")).click();
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("pair")).isDisplayed());
		assertThat(chromium.text("pair-a")).startsWith("A: compare SET, 2,000 commands, finished ")
			.doesNotContainPattern("[0-9a-f]{8}-[0-9a-f]{4}");
		// Each ratio is coloured better or worse, or marked as within the spread of the
		// repeats.
		assertThat(chromium.driver.findElements(By.cssSelector("#pair-table tbody tr"))).hasSize(2)
			.allSatisfy((row) -> assertThat(
					row.getDomAttribute("class") + " " + row.findElements(By.cssSelector("td.better, td.worse")).size())
				.matches("within-spread 0|null 2"));
	}

	@Test
	void exportLinksDownloadTheRunAsJsonCsvAndMarkdownWithAPermalink() throws Exception {
		open("compare", "count", "2000", "batchSize", "500");
		chromium.tickOnly("loop", "pipelined-flush-on-close");
		runUntilDone(Duration.ofSeconds(60));
		String id = results().getDomAttribute("data-id");
		for (String format : List.of("json", "csv", "md")) {
			chromium.driver.findElement(By.cssSelector("#exports a[data-format=" + format + "]")).click();
		}
		String stem = "pipelining-lab-compare-set-2000-" + id.substring(0, 8);
		chromium.waitFor(Duration.ofSeconds(20),
				() -> List.of("json", "csv", "md")
					.stream()
					.allMatch((ext) -> Files.exists(chromium.downloads.resolve(stem + "." + ext))));
		assertThat(Files.readString(chromium.downloads.resolve(stem + ".csv"))).startsWith("operation,count,topology")
			.contains("set,2000,standalone,loop,");
		// Every figure the page shows, in every format: server side per item, latency,
		// what it was measured on.
		assertThat(Files.readString(chromium.downloads.resolve(stem + ".csv")).lines().findFirst().orElseThrow())
			.contains("server reads/item", "server cpu µs/item", "p50 ms", "p99.9 ms", "note");
		assertThat(Files.readString(chromium.downloads.resolve(stem + ".md"))).contains("| variant |",
				"server reads/item", "p99 ms", "measured on: Redis ", "The loop's own commands took");
		assertThat(Files.readString(chromium.downloads.resolve(stem + ".json"))).contains("\"id\":\"" + id + "\"");

		// The permalink shows the same run on a fresh page.
		String permalink = chromium.driver.findElement(By.id("permalink")).getDomProperty("href");
		assertThat(permalink).endsWith("/?run=" + id);
		chromium.driver.get(permalink);
		chromium.waitFor(Duration.ofSeconds(20), () -> results().isDisplayed());
		assertThat(chromium.tableRows("#results-table")).extracting((row) -> row.get(0))
			.containsExactly("loop", "pipelined-flush-on-close");
	}

	@Test
	void cancelDuringSetUpEndsWithinSeconds() throws Exception {
		open();
		// A GET comparison first writes every key it reads: 3 million of them here.
		chromium.fill("operation", "get", "count", "3000000");
		chromium.tickOnly("pipelined-flush-on-close");
		run();
		chromium.waitFor(Duration.ofSeconds(30), () -> chromium.text("status").contains("preparing"));
		long clicked = System.nanoTime();
		chromium.driver.findElement(By.id("cancel-button")).click();
		assertThat(chromium.waitForEnd(Duration.ofSeconds(30))).isEqualTo("CANCELLED");
		Duration took = Duration.ofNanos(System.nanoTime() - clicked);
		System.out.println("[browser] cancel during set-up ended after " + took.toMillis() + " ms");
		assertThat(took).isLessThan(Duration.ofSeconds(4));
		assertThat(chromium.driver.findElement(By.id("run-button")).isEnabled()).isTrue();
	}

	@Test
	void at1400PixelsEveryResultColumnIsReadableWithoutSidewaysScrolling() throws Exception {
		chromium.driver.manage().window().setSize(new Dimension(1400, 1000));
		open();
		// The widest table the page draws: every column, long variant names, Jedis rows,
		// hits and misses.
		chromium.fill("operation", "get", "count", "3000", "batchSize", "500", "repeat", "2", "clients", "2");
		chromium.tickOnly("loop", "pipelined-flush-each-command", "pipelined-buffered-500", "multi-key", "script",
				"async", "jedis-loop", "jedis-pipelined", "jedis-multi-key", "jedis-script");
		runUntilDone(Duration.ofSeconds(90));
		Map<String, Object> measured = layout();
		System.out.println("[browser] 1400 px layout: " + measured);
		assertThat(((Number) measured.get("wrapScroll")).longValue()).as("the table scrolls sideways in its box")
			.isLessThanOrEqualTo(((Number) measured.get("wrapClient")).longValue());
		assertThat(((Number) measured.get("pageScroll")).longValue())
			.isLessThanOrEqualTo(((Number) measured.get("viewport")).longValue());
		assertThat(((Number) measured.get("cellsOutside")).longValue()).isZero();
		// Repeated passes: ops/s and the speedup carry their range under the figure,
		// where
		// the passes' times said the same at more width.
		assertThat(headers()).containsExactly("Variant", "Batch size", "Round trips", "Elapsed ms", "ops/s", "Speedup",
				"RTT ms", "Server reads/item", "Server CPU µs/item", "Checked");
		// Every ops/s, and every speedup but the two loops' (1× by definition).
		assertThat(js("return document.querySelectorAll('#results-table td .spread').length")).isEqualTo(18L);
		// A table, not cards, at this width.
		assertThat(js("return getComputedStyle(document.querySelector('#results-table thead')).position"))
			.isNotEqualTo("absolute");
		scrollTo("results");
		chromium.screenshot(HeadlessChromium.SCREENSHOTS.resolve("web-page-1400px.png"));
		scrollTo("server-calls-chart");
		chromium.screenshot(HeadlessChromium.SCREENSHOTS.resolve("web-page-server-charts.png"));
	}

	@Test
	void aRunWhileAnotherClientFloodsRedisIsFlaggedOnThePage() throws Exception {
		open("single", "mode", "loop");
		// The flood's 100 commands a millisecond come to thousands beside a loop of 300,
		// whose allowance is about 50: flagged many times over. (Each round trip of the
		// loop waits its turn behind the flood on a busy machine: keep them few.)
		// The added millisecond a round trip holds the timed pass open for 300 ms
		// at least: a loop done in a few milliseconds can fall between two bursts
		// of a flood thread that a loaded machine leaves unscheduled (it did once,
		// at load average 18).
		chromium.setField("count", "300");
		chromium.setField("rtt", "1");
		StandaloneRedis redis = RedisTestServers.standalone();
		try (Flood flood = new Flood(redis.host(), redis.port())) {
			flood.awaitStarted();
			run();
			assertThat(chromium.waitForEnd(Duration.ofSeconds(90))).isEqualTo("DONE");
		}
		assertThat(chromium.text("context")).contains("⚠ loop: the server processed", "another client");
		assertThat(js("return document.querySelector('#results-table tbody tr').className")).isEqualTo("foreign");
	}

	@Test
	void at390PixelsEveryResultColumnIsReadableWithoutSidewaysScrolling() throws Exception {
		chromium.driver.manage().window().setSize(new Dimension(390, 844));
		open("compare", "count", "3000", "batchSize", "500", "repeat", "2");
		chromium.tickOnly("loop", "pipelined-flush-on-close", "multi-key");
		runUntilDone(Duration.ofSeconds(60));
		Map<String, Object> measured = layout();
		System.out.println("[browser] 390 px layout: " + measured);
		assertThat(((Number) measured.get("wrapScroll")).longValue())
			.isLessThanOrEqualTo(((Number) measured.get("wrapClient")).longValue());
		assertThat(((Number) measured.get("pageScroll")).longValue())
			.isLessThanOrEqualTo(((Number) measured.get("viewport")).longValue());
		assertThat(((Number) measured.get("cellsOutside")).longValue()).isZero();
		// Repeated: the ranges of ops/s and speedup under the figures, no Min–max ms.
		assertThat(measured.get("labels").toString().split("\\|")).containsExactly("Variant", "Batch size",
				"Round trips", "Elapsed ms", "ops/s", "Speedup", "RTT ms", "Server reads/item", "Server CPU µs/item",
				"Checked");
		// The latency chart per item, titled, and tall enough to read on a phone.
		assertThat(js("return Chart.getChart('latency-chart').options.plugins.title.text")).asString()
			.startsWith("Latency per item, ms");
		assertThat(((Number) js("return document.getElementById('latency-chart').getBoundingClientRect().height"))
			.doubleValue()).isGreaterThan(240);
		scrollTo("results");
		chromium.screenshot(HeadlessChromium.SCREENSHOTS.resolve("web-page-390px.png"));
	}

	/**
	 * The README's picture of a compare of a million SETs, from the real page, with what
	 * it must show. Only with {@code -Dlab.screenshots=DIR}, as the million-command loop
	 * alone takes a minute or two.
	 */
	@Test
	void screenshotOfAMillionCommandCompare() throws Exception {
		Path directory = screenshotDirectory();
		chromium.driver.manage().window().setSize(new Dimension(1280, 1500));
		open();
		chromium.setField("count", "1000000");
		runToTheEnd(Duration.ofMinutes(10));
		assertThat(chromium.tableRows("#results-table")).extracting((row) -> row.get(0))
			.contains("loop", "pipelined-flush-on-close");
		scrollTo("results");
		assertThat(paintedPixels()).as("the chart drew bars").isGreaterThan(1000);
		chromium.screenshot(directory.resolve("compare-1m.png"));
	}

	/**
	 * The picture of a sweep in docs/web-and-jobs.md, with what it must show; only with
	 * {@code -Dlab.screenshots=DIR}.
	 */
	@Test
	void screenshotOfASweep() throws Exception {
		Path directory = screenshotDirectory();
		chromium.driver.manage().window().setSize(new Dimension(1280, 1500));
		open("sweep", "count", "200000", "batchSizes", "1,10,100,1000,10000,100000");
		runToTheEnd(Duration.ofMinutes(10));
		assertThat(chromium.tableRows("#results-table")).extracting((row) -> row.get(1))
			.containsExactly("1", "10", "100", "1,000", "10,000", "100,000");
		scrollTo("results");
		assertThat(paintedPixels()).as("the chart drew its line").isGreaterThan(200);
		chromium.screenshot(directory.resolve("sweep.png"));
	}

	private static Path screenshotDirectory() {
		String directory = System.getProperty("lab.screenshots");
		assumeTrue(directory != null, "-Dlab.screenshots=<dir> takes the screenshots of the README and docs");
		return Path.of(directory);
	}

	/**
	 * How the results table sits in its box: its scroll and client widths, the page's,
	 * and cells that stick out of the box or the viewport.
	 */
	@SuppressWarnings("unchecked")
	private static Map<String, Object> layout() {
		return (Map<String, Object>) js("""
				const wrap = document.querySelector('#results .table-wrap');
				const cells = Array.from(document.querySelectorAll('#results-table td'));
				const page = document.documentElement;
				const box = wrap.getBoundingClientRect();
				return {
				  viewport: page.clientWidth,
				  pageScroll: page.scrollWidth,
				  wrapScroll: wrap.scrollWidth,
				  wrapClient: wrap.clientWidth,
				  cellsOutside: cells.filter((c) => { const r = c.getBoundingClientRect();
				    return r.width > 0 && (r.left < Math.max(0, box.left - 1) || r.right > Math.min(page.clientWidth,
				      box.right + 1)); }).length,
				  labels: Array.from(new Set(cells.filter((c) => c.offsetParent !== null).map((c) => c.dataset.label)))
				    .join('|'),
				  // What sticks out of the page on the right, to tell a failure's cause.
				  outside: Array.from(document.querySelectorAll('body *'))
				    .filter((e) => e.getBoundingClientRect().right > page.clientWidth + 1 && e.offsetParent !== null)
				    .slice(0, 5).map((e) => e.tagName + '#' + e.id + '.' + e.className + ' '
				      + Math.round(e.getBoundingClientRect().right)).join(', '),
				};""");
	}

	/** Runs what the form says, on a page that shows no run's end yet: ends DONE. */
	private static void runUntilDone(Duration atMost) {
		run();
		assertThat(chromium.waitForEnd(atMost)).isEqualTo("DONE");
	}

	/**
	 * Runs what the form says, from a page that may still show an earlier run's end:
	 * waits for this run's own results, or for its status to end otherwise, rather than
	 * for a status between the two, which a short run can pass through between two looks.
	 */
	private static void runToTheEnd(Duration atMost) {
		String shownBefore = chromium.driver.findElement(By.id("results")).getDomAttribute("data-id");
		String statusBefore = attribute("status", "data-status");
		run();
		chromium.waitFor(atMost, () -> {
			String status = attribute("status", "data-status");
			return !Objects.equals(shownBefore,
					chromium.driver.findElement(By.id("results")).getDomAttribute("data-id"))
					|| (!Objects.equals(statusBefore, status)
							&& List.of("FAILED", "CANCELLED", "LOST").contains(status));
		});
		assertThat(chromium.waitForEnd(atMost)).isEqualTo("DONE");
	}

	/**
	 * Opens the page with the form set up: the kind of run, then its fields in order (a
	 * choice can show or hide others), as {@link HeadlessChromium#fill} takes them.
	 */
	private void open(String kind, String... idsAndValues) {
		open();
		chromium.chooseKind(kind);
		chromium.fill(idsAndValues);
	}

	private void open() {
		chromium.driver.get(baseUrl() + "/");
		// The page asks the app for its topology once its script runs: proof both scripts
		// loaded.
		chromium.waitFor(Duration.ofSeconds(20),
				() -> chromium.text("topology").startsWith("Set up for standalone Redis"));
		assertThat(js("return typeof Chart")).isEqualTo("function");
	}

	private static void run() {
		chromium.driver.findElement(By.id("run-button")).click();
	}

	/** The message beside a field, once the page shows one. */
	private static String fieldError(String id) {
		chromium.waitFor(Duration.ofSeconds(5), () -> !chromium.driver.findElements(By.id(id + "-error")).isEmpty()
				&& !chromium.text(id + "-error").isEmpty());
		return chromium.text(id + "-error");
	}

	/** Wholly inside the browser's viewport. */
	private static boolean inView(String id) {
		return (Boolean) js("""
				const box = document.getElementById(arguments[0]).getBoundingClientRect();
				return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;""", id);
	}

	private static long whole(String grouped) {
		return Long.parseLong(grouped.replace(",", ""));
	}

	private static WebElement results() {
		return chromium.driver.findElement(By.id("results"));
	}

	private static List<String> headers() {
		return chromium.driver.findElements(By.cssSelector("#results-table thead th"))
			.stream()
			.map(WebElement::getText)
			.toList();
	}

	private static String attribute(String id, String name) {
		return chromium.driver.findElement(By.id(id)).getDomAttribute(name);
	}

	private static void scrollTo(String id) {
		js("document.getElementById(arguments[0]).scrollIntoView()", id);
	}

	private static Object js(String script, Object... args) {
		return ((JavascriptExecutor) chromium.driver).executeScript(script, args);
	}

	private String chart(String what) {
		Object value = js("""
				const chart = Chart.getChart('chart');
				if (!chart) return null;
				const data = chart.data.datasets[0].data;
				switch (arguments[0]) {
				  case 'type': return chart.config.type;
				  case 'indexAxis': return chart.options.indexAxis;
				  case 'labels': return chart.data.labels.join(',');
				  case 'datasets': return chart.data.datasets.map((d) => d.label).join('|');
				  case 'points': return data.map((p) => p.x).join(',');
				  case 'title': return chart.options.plugins.title.text;
				  case 'sortedDescending': return String(data.every((v, i) => i === 0 || data[i - 1] >= v));
				}""", what);
		return (value != null) ? value.toString() : null;
	}

	private static String serverChart(String id, String what) {
		Object value = js("""
				const chart = Chart.getChart(arguments[0]);
				if (!chart) return null;
				switch (arguments[1]) {
				  case 'title': return chart.options.plugins.title.text;
				  case 'labels': return chart.data.labels.join(',');
				  case 'datasets': return chart.data.datasets.map((d) => d.label).join('|');
				  case 'axis': return chart.options.scales.x.title.text;
				  case 'first': return chart.data.datasets[0].data.join(',');
				}""", id, what);
		return (value != null) ? value.toString() : null;
	}

	private long paintedPixels() {
		return painted("chart");
	}

	/**
	 * Pixels of a chart canvas that are not transparent: the chart was drawn, not only
	 * configured.
	 */
	private static long painted(String id) {
		Object count = js("""
				const canvas = document.getElementById(arguments[0]);
				const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
				let painted = 0;
				for (let i = 3; i < data.length; i += 4) { if (data[i] > 0) painted++; }
				return painted;""", id);
		return ((Number) count).longValue();
	}

}
