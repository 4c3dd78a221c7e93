package dev.pipelininglab.web.page;

import java.time.Duration;
import java.util.List;

import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a real Chromium gets where a person types a URL: a run URL answers the page of
 * that run (summary first, the table, the record's JSON one click away, the lab's page
 * another), and Swagger UI's Try it out on {@code /pipeset/{count}}, with only count
 * typed, answers 200.
 */
@SlowTest
class AddressBarBrowserTests extends BrowserOnTestRedis {

	@Test
	void aComparisonTypedInTheAddressBarIsAPageThatOpensInTheLab() throws Exception {
		// Every variant, as the address bar's default comparison runs them, on 2,000
		// keys: what the page shows does not hang on the count, and 10,000 cost
		// seconds more.
		chromium.driver.get(baseUrl() + "/compare/set/2000");
		assertThat(chromium.driver.getTitle()).startsWith("compare SET, 2,000 commands on standalone");
		WebElement summary = chromium.driver.findElement(By.id("summary"));
		WebElement table = chromium.driver.findElement(By.id("results-table"));
		assertThat(summary.getText()).contains("ops/s");
		assertThat(summary.getLocation().getY()).as("the answer above the table")
			.isLessThan(table.getLocation().getY());
		List<List<String>> rows = chromium.tableRows("#results-table");
		assertThat(rows).extracting((row) -> row.get(0)).contains("loop", "pipelined-buffered-500");
		assertThat(rows).allSatisfy((row) -> assertThat(row).contains("2,000 verified"));
		chromium.screenshot(HeadlessChromium.SCREENSHOTS.resolve("compare-html.png"));
		String page = chromium.driver.getCurrentUrl();
		String said = summary.getText();

		chromium.driver.findElement(By.id("record")).click();
		chromium.waitFor(Duration.ofSeconds(10), () -> chromium.driver.getCurrentUrl().contains("/runs/"));
		assertThat(chromium.driver.findElement(By.tagName("body")).getText()).startsWith("{")
			.contains("\"status\":\"DONE\"");
		chromium.driver.navigate().back();
		assertThat(chromium.driver.getCurrentUrl()).as("back at the page: it is not run again").isEqualTo(page);

		chromium.driver.findElement(By.id("open")).click();
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("results")).isDisplayed()
				&& !chromium.text("comparison-summary").isEmpty());
		assertThat(chromium.text("comparison-summary")).isEqualTo(said);
	}

	@Test
	void aPipelineTypedInTheAddressBarIsAPageOfItsOneRow() {
		chromium.driver.get(baseUrl() + "/pipeset/10000");
		assertThat(chromium.driver.getTitle()).startsWith("SET pipelined-buffered-500, 10,000 commands on standalone");
		assertThat(chromium.text("summary")).contains("ops/s");
		assertThat(chromium.tableRows("#results-table")).singleElement()
			.satisfies((row) -> assertThat(row).startsWith("pipelined-buffered-500").contains("10,000 verified"));
	}

	@Test
	void swaggerUisTryItOutOnPipesetWithOnlyCountTypedAnswers200() {
		chromium.driver.get(baseUrl() + "/swagger-ui.html");
		By pipeset = By.xpath("//*[@data-path='/pipeset/{count}']");
		chromium.waitFor(Duration.ofSeconds(30), () -> !chromium.driver.findElements(pipeset).isEmpty());
		chromium.driver.findElement(pipeset).click();
		WebElement operation = chromium.driver.findElement(By.xpath("//*[@data-path='/pipeset/{count}']"
				+ "/ancestor::div[contains(concat(' ', @class, ' '), ' opblock ')]"));
		chromium.waitFor(Duration.ofSeconds(10),
				() -> !operation.findElements(By.cssSelector(".try-out__btn")).isEmpty());
		operation.findElement(By.cssSelector(".try-out__btn")).click();
		WebElement count = operation.findElement(By.cssSelector("tr[data-param-name='count'] input"));
		count.clear();
		count.sendKeys("2000");
		operation.findElement(By.cssSelector(".execute")).click();
		chromium.waitFor(Duration.ofSeconds(60),
				() -> !operation.findElements(By.cssSelector(".live-responses-table tr.response .response-col_status"))
					.isEmpty());
		String status = operation.findElement(By.cssSelector(".live-responses-table tr.response .response-col_status"))
			.getText();
		String body = operation
			.findElement(By.cssSelector(".live-responses-table .microlight, " + ".live-responses-table pre"))
			.getText();
		assertThat(status).as(body).isEqualTo("200");
		assertThat(body).contains("\"written\": 2000");
	}

}
