package dev.pipelininglab.web.page;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page around a finished run, in a real Chromium: the answer above the table and the
 * table's header in view after a run, the round trip in the history and in "Your RTT" for
 * a run through the relay, a fleet run's members, and instances refused beside the field
 * for a comparison.
 */
@SlowTest
class ResultsPanelBrowserTests extends BrowserOnTestRedis {

	@Autowired
	StringRedisTemplate redis;

	@Autowired
	KeySpace keys;

	@Autowired
	JsonMapper json;

	@Test
	void afterARunThroughTheRelayTheHeaderIsInViewAndTheHistoryAndYourRttSayItsRoundTrip() {
		chromium.driver.manage().window().setSize(new Dimension(WIDTH, 900));
		chromium.driver.get(baseUrl() + "/");
		// Every variant through the relay: 300 commands each, as each waits out the added
		// millisecond; what is in view and the round trip said do not hang on the count.
		chromium.fill("count", "300", "rtt", "1");
		chromium.driver.findElement(By.id("run-button")).click();
		assertThat(chromium.waitForEnd(Duration.ofSeconds(120))).isEqualTo("DONE");

		assertThat(js("return getComputedStyle(document.querySelector('#results-table thead th')).position"))
			.isEqualTo("sticky");
		chromium.waitFor(Duration.ofSeconds(5),
				() -> inView("#results-table thead th") && inView("#comparison-summary"));
		assertThat((Number) js("return document.querySelector('#comparison-summary').getBoundingClientRect().top"))
			.as("the answer above the table")
			.satisfies((top) -> assertThat(top.doubleValue())
				.isLessThan(((Number) js("return document.querySelector('#results-table').getBoundingClientRect().top"))
					.doubleValue()));

		chromium.waitFor(Duration.ofSeconds(10), () -> !chromium.tableRows("#history").isEmpty()
				&& chromium.tableRows("#history").get(0).get(8).endsWith("+1 added"));
		String rtt = chromium.tableRows("#history").get(0).get(8);
		assertThat(Double.parseDouble(rtt.substring(0, rtt.indexOf(' ')))).as(rtt).isGreaterThanOrEqualTo(1);
		String yours = (String) js("return document.getElementById('your-rtt').value");
		assertThat(Double.parseDouble(yours)).as("Your RTT after a run through the relay").isGreaterThanOrEqualTo(1);
	}

	@Test
	void aComparisonOfSeveralInstancesIsRefusedBesideTheFieldAndNothingRuns() {
		chromium.driver.get(baseUrl() + "/");
		chromium.chooseKind("compare");
		chromium.fill("count", "1000", "instances", "3");
		chromium.driver.findElement(By.id("run-button")).click();
		chromium.waitFor(Duration.ofSeconds(10), () -> !chromium.driver.findElements(By.id("instances-error")).isEmpty()
				&& chromium.driver.findElement(By.id("instances-error")).isDisplayed());
		assertThat(chromium.text("instances-error")).startsWith("instances must be 1 or left out but for single runs");
		assertThat(chromium.driver.findElement(By.id("instances")).getDomAttribute("aria-invalid")).isEqualTo("true");
		assertThat(chromium.driver.findElement(By.id("status")).getDomAttribute("data-status")).isEqualTo("IDLE");
	}

	@Test
	void aFleetRunsMembersAreListedWithTheirShares() throws Exception {
		HttpResponse<String> ran = http().get("/pipeset/1000", "application/json");
		String record = http().get(ran.headers().firstValue("Content-Location").orElseThrow(), null).body();
		// The record this app wrote, as a leader of two would have: its fleet part in
		// Redis, where the page reads it.
		ObjectNode fleetRun = (ObjectNode) this.json.readTree(record);
		String id = UUID.randomUUID().toString();
		fleetRun.put("id", id);
		fleetRun.set("fleet", this.json.readTree("""
				{"asked": 2, "instances": 2, "coordination": "through Redis",
				 "members": [
				   {"instance": "lab-a", "share": {"from": 0, "to": 500}, "written": 500, "verified": 500,
				    "opsPerSecond": 1234.0, "startSkewMillis": 0.12},
				   {"instance": "lab-b", "share": {"from": 500, "to": 1000}, "written": 500, "verified": 500,
				    "opsPerSecond": 2345.0, "startSkewMillis": 0.0}]}"""));
		this.redis.opsForValue()
			.set(this.keys.prefix() + ":run:" + id, this.json.writeValueAsString(fleetRun), Duration.ofMinutes(5));

		chromium.driver.get(baseUrl() + "/?run=" + id);
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("fleet")).isDisplayed());
		assertThat(chromium.driver.findElements(By.cssSelector("#fleet li"))).extracting((item) -> item.getText())
			.containsExactly("Fleet: 2 of 2 instances asked:",
					"lab-a · items 0 to 499 · 1,234 ops/s · 500 verified · started 0.12 ms after the first",
					"lab-b · items 500 to 999 · 2,345 ops/s · 500 verified · started 0 ms after the first");
		chromium.driver.get(baseUrl() + "/?run="
				+ ran.headers().firstValue("Content-Location").orElseThrow().substring("/runs/".length()));
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.driver.findElement(By.id("results")).isDisplayed());
		assertThat(chromium.driver.findElement(By.id("fleet")).isDisplayed()).as("no fleet, no list").isFalse();
	}

	private static boolean inView(String selector) {
		return (Boolean) js("""
				const box = document.querySelector(arguments[0]).getBoundingClientRect();
				return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;""", selector);
	}

	private static Object js(String script, Object... args) {
		return ((JavascriptExecutor) chromium.driver).executeScript(script, args);
	}

}
