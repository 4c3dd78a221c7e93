package dev.pipelininglab.web;

import java.time.Duration;
import java.util.List;

import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

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
		chromium.setField("batchSize", "500");
		for (WebElement box : chromium.driver.findElements(By.cssSelector("input[name=variants]"))) {
			if (box.isSelected() != List.of("loop", "pipelined-flush-on-close")
				.contains(box.getDomAttribute("value"))) {
				box.click();
			}
		}
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
		js("arguments[0].scrollIntoView()", pipelined);
		pipelined.click();
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("recipe")).isDisplayed()
				&& chromium.text("recipe-source").contains("class PipelinedRecipe"));
		String source = chromium.text("recipe-source");
		assertThat(source).contains("static final int BATCH_SIZE = 500;", "PipeliningFlushPolicy.flushOnClose()");
		assertThat(chromium.text("recipe-title")).contains("PipelinedRecipe.java", "batches of 500", "flush-on-close");
		assertThat(chromium.text("recipe-cost")).startsWith("Cost: one round trip per batch");
		assertThat(chromium.text("recipe-catch")).startsWith("Catch: not atomic");
		chromium.driver.findElement(By.id("recipe-copy")).click();
		chromium.waitFor(Duration.ofSeconds(5), () -> !chromium.text("recipe-copied").isEmpty());

		assertThat(chromium.driver.findElement(By.id("projection")).isDisplayed()).isTrue();
		Object datasets = js("""
				const chart = Chart.getChart('projection-chart');
				return chart ? chart.data.datasets.map((d) => d.label + ':' + d.data.length).join('|') : null;""");
		assertThat(String.valueOf(datasets)).contains("loop (predicted):6", "loop (measured):1",
				"pipelined-flush-on-close ×500 (predicted):6", "pipelined-flush-on-close ×500 (measured):1");
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
		chromium.setField("count", "20000");
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
	}

	private static Object js(String script, Object... args) {
		return ((JavascriptExecutor) chromium.driver).executeScript(script, args);
	}

}
