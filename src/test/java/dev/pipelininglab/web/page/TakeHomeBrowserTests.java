package dev.pipelininglab.web.page;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Take it to your app" on the page, in a real headless Chromium: after a finished
 * compare, each result row's "Use in my app" opens its recipe with the row's batch size
 * and flush policy filled in, with a copy button, and the RTT projection is drawn with
 * the measured point of each variant on it.
 */
@SlowTest
class TakeHomeBrowserTests extends BrowserOnTestRedis {

	@Test
	void aFinishedCompareShowsTheRecipeOfARowAndTheProjectionChart() throws Exception {
		chromium.driver.get(baseUrl() + "/");
		chromium.waitFor(Duration.ofSeconds(20),
				() -> chromium.text("topology").startsWith("Set up for standalone Redis"));
		chromium.setField("count", "3000");
		chromium.moreSettings();
		chromium.setField("batchSize", "500");
		chromium.tickOnly("loop", "pipelined-flush-on-close");
		chromium.driver.findElement(By.id("run-button")).click();
		assertThat(chromium.waitForEnd(Duration.ofSeconds(90))).isEqualTo("DONE");

		List<WebElement> buttons = chromium.driver.findElements(By.cssSelector("#results-table .use-in-app"));
		assertThat(buttons).extracting((button) -> button.getDomAttribute("data-variant"))
			.containsExactlyInAnyOrder("loop", "pipelined-flush-on-close");
		assertThat(chromium.tableRows("#results-table")).extracting((row) -> row.get(0))
			.as("the button leaves the variant's name as the cell's text")
			.containsExactlyInAnyOrder("loop", "pipelined-flush-on-close");
		WebElement pipelined = buttons.stream()
			.filter((button) -> "pipelined-flush-on-close".equals(button.getDomAttribute("data-variant")))
			.findFirst()
			.orElseThrow();
		// Each button names its variant, so a screen reader's list of buttons tells them
		// apart.
		assertThat(buttons).extracting((button) -> button.getDomAttribute("aria-label"))
			.containsExactlyInAnyOrder("Use loop, in my app",
					"Use pipelined-flush-on-close, batches of 500, in my app");
		js("arguments[0].scrollIntoView()", pipelined);
		pipelined.click();
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("recipe")).isDisplayed()
				&& chromium.text("recipe-source").contains("class PipelinedRecipe"));
		// It opens in view, with the focus on its title (which names the variant), and is
		// said.
		chromium.waitFor(Duration.ofSeconds(5), () -> "recipe-title".equals(js("return document.activeElement.id")));
		assertThat(js("const box = document.getElementById('recipe').getBoundingClientRect();"
				+ " return box.top >= 0 && box.top < window.innerHeight;"))
			.isEqualTo(true);
		assertThat(chromium.driver.findElement(By.id("announcer")).getDomProperty("textContent"))
			.startsWith("Recipe opened: PipelinedRecipe.java for pipelined-flush-on-close");
		String source = chromium.text("recipe-source");
		assertThat(source).contains("static final int BATCH_SIZE = 500;", "PipeliningFlushPolicy.flushOnClose()");
		assertThat(chromium.text("recipe-title")).contains("PipelinedRecipe.java", "batches of 500", "flush-on-close");
		assertThat(chromium.text("recipe-cost")).startsWith("Cost: one round trip per batch");
		assertThat(chromium.text("recipe-catch"))
			.startsWith("Catch: the flush policy is set on the connection factory, so it applies to every pipeline");
		chromium.driver.findElement(By.id("recipe-copy")).click();
		chromium.waitFor(Duration.ofSeconds(5), () -> !chromium.text("recipe-copied").isEmpty());

		assertThat(chromium.driver.findElement(By.id("projection")).isDisplayed()).isTrue();
		Object datasets = js("""
				const chart = Chart.getChart('projection-chart');
				return chart ? chart.data.datasets.map((d) => d.label + ':' + d.data.length).join('|') : null;""");
		// One line per result: its six predicted points and the measured one on it.
		assertThat(String.valueOf(datasets)).isEqualTo("loop:7|pipelined-flush-on-close ×500:7");
		assertThat(chromium.text("your-rtt-answer")).contains("loop: ", "ops/s");
		js("document.getElementById('take-home').scrollIntoView()");
		chromium.screenshot(HeadlessChromium.SCREENSHOTS.resolve("web-page-take-home.png"));
	}

	@Test
	void aFinishedSweepShowsTheRecommendationOnTheChartAndItsRecipe() throws Exception {
		chromium.driver.get(baseUrl() + "/");
		chromium.waitFor(Duration.ofSeconds(20),
				() -> chromium.text("topology").startsWith("Set up for standalone Redis"));
		chromium.chooseKind("sweep");
		// 5,000 keys: the advice is worked out from each size's own round trips and work
		// per item, whatever the count.
		chromium.setField("count", "5000");
		chromium.setField("batchSizes", "10,100,1000");
		chromium.driver.findElement(By.id("run-button")).click();
		assertThat(chromium.waitForEnd(Duration.ofSeconds(90))).isEqualTo("DONE");

		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("recipe")).isDisplayed());
		String recommendation = chromium.text("recommendation");
		assertThat(recommendation).startsWith("Recommended: Use batches of ");
		String size = recommendation.replaceAll("^Recommended: Use batches of ([0-9,]+):.*$", "$1").replace(",", "");
		assertThat(size).isIn("10", "100", "1000");
		assertThat(chromium.text("recipe-source")).contains("static final int BATCH_SIZE = " + size + ";");
		Object star = js("""
				const chart = Chart.getChart('chart');
				const marked = chart.data.datasets.find((d) => d.label.startsWith('recommended'));
				return marked ? marked.data[0].x : null;""");
		assertThat(String.valueOf(star)).isEqualTo(size);

		// The advice follows the round trip typed: the same rule on each size's
		// projection,
		// and at 20 ms the longest batches.
		for (String rtt : List.of("0.01", "0.8", "20")) {
			chromium.setField("your-rtt", rtt);
			chromium.waitFor(Duration.ofSeconds(5),
					() -> chromium.text("recommendation-at-rtt").startsWith("At your " + rtt + " ms round trip"));
			assertThat(chromium.driver.findElement(By.id("recommendation-at-rtt")).getDomAttribute("data-batch-size"))
				.as("at " + rtt + " ms")
				.isEqualTo(String.valueOf(rule(Double.parseDouble(rtt))));
		}
		assertThat(chromium.driver.findElement(By.id("recommendation-at-rtt")).getDomAttribute("data-batch-size"))
			.isEqualTo("1000");
	}

	/**
	 * The smallest batch size within 90% of the best at {@code rtt}, from the record's
	 * own projection figures, worked out here rather than by the page.
	 */
	private long rule(double rtt) throws Exception {
		String id = chromium.driver.findElement(By.id("results")).getDomAttribute("data-id");
		JsonNode record = JsonMapper.builder().build().readTree(http().get("/runs/" + id, "application/json").body());
		Map<Long, Double> at = new TreeMap<>();
		record.path("results").forEach((result) -> {
			JsonNode p = result.path("projection");
			at.put(result.path("batchSize").asLong(),
					1000 / (p.path("roundTripsPerItem").asDouble() * rtt + p.path("workMillisPerItem").asDouble()));
		});
		double best = at.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
		return at.entrySet().stream().filter((e) -> e.getValue() >= 0.9 * best).findFirst().orElseThrow().getKey();
	}

	private static Object js(String script, Object... args) {
		return ((JavascriptExecutor) chromium.driver).executeScript(script, args);
	}

}
