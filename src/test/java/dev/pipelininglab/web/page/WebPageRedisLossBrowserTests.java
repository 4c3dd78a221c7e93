package dev.pipelininglab.web.page;

import java.time.Duration;

import dev.pipelininglab.testsupport.Http;
import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis killed in the middle of a run started from the page, and restarted empty: the
 * page ends the run with its reason (the record lived only in the Redis that died; the
 * instance that ran it still knows), says Redis is unreachable instead of showing an
 * empty history, and once Redis is back the next run works within seconds. That it stays
 * seconds after a long outage is the capped back-off, checked by RedisKilledMidRunTests
 * on the app's client resources.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.data.redis.timeout=5s")
@OwnRedis
@SlowTest
class WebPageRedisLossBrowserTests {

	/**
	 * With the lab's 1 s cap on the reconnect back-off, runs work within a few seconds on
	 * a busy machine.
	 */
	private static final Duration RECOVERY = Duration.ofSeconds(6);

	@Autowired
	StandaloneRedis redis;

	private static HeadlessChromium chromium;

	@LocalServerPort
	int port;

	@BeforeAll
	static void startBrowser() throws Exception {
		chromium = HeadlessChromium.shared(1280, 1600);
	}

	@AfterAll
	static void leaveBrowser() {
		if (chromium != null) {
			chromium.leave();
		}
	}

	@BeforeEach
	void browserPresent() {
		HeadlessChromium.assumeAvailable();
		chromium.freshFor("http://127.0.0.1:" + this.port);
	}

	@Test
	void runWhoseRedisIsKilledEndsOnThePageWithItsReasonAndRunWorksOnceRedisIsBack() throws Exception {
		chromium.driver.get("http://127.0.0.1:" + this.port + "/");
		chromium.waitFor(Duration.ofSeconds(20), () -> chromium.text("topology").startsWith("Set up for standalone"));
		chromium.chooseKind("single");
		chromium.setField("count", "10000000");
		chromium.setField("batchSize", "1000");
		chromium.driver.findElement(By.id("run-button")).click();
		chromium.waitFor(Duration.ofSeconds(60), () -> chromium.text("status").contains("timing "));
		chromium.waitFor(Duration.ofSeconds(10),
				() -> !chromium.driver.findElements(By.cssSelector("#history tr.current")).isEmpty());
		String killedRun = chromium.driver.findElement(By.cssSelector("#history tr.current"))
			.getDomAttribute("data-id");

		Outages.kill(this.redis.process());
		long killed = System.nanoTime();
		String end = chromium.waitForEnd(Duration.ofSeconds(20));
		Duration endedAfter = Duration.ofNanos(System.nanoTime() - killed);
		System.out.printf("[browser] Redis killed: the page showed %s after %d ms: %s | %s%n", end,
				endedAfter.toMillis(), chromium.text("status"), chromium.text("problem"));
		assertThat(end).isIn("FAILED", "LOST");
		assertThat(chromium.text("problem")).containsIgnoringCase("redis");
		assertThat(chromium.driver.findElement(By.id("run-button")).isEnabled()).isTrue();
		chromium.waitFor(Duration.ofSeconds(10), () -> chromium.driver.findElement(By.id("banner")).isDisplayed());
		assertThat(chromium.text("banner")).contains("Redis is unreachable");
		// The run this instance ran is still listed, from its memory.
		assertThat(chromium.tableRows("#history")).anySatisfy((row) -> assertThat(row).contains("FAILED"));

		// A reload while Redis is down says so too, rather than showing an empty history.
		chromium.driver.navigate().refresh();
		chromium.waitFor(Duration.ofSeconds(10), () -> chromium.driver.findElement(By.id("banner")).isDisplayed());

		chromium.chooseKind("single");
		chromium.setField("count", "20000");
		this.redis.restart();
		long back = System.nanoTime();
		int refused = 0;
		String status;
		while (true) {
			chromium.driver.findElement(By.id("run-button")).click();
			chromium.waitFor(Duration.ofSeconds(10), () -> chromium.driver.findElement(By.id("problem")).isDisplayed()
					|| !"IDLE".equals(chromium.driver.findElement(By.id("status")).getDomAttribute("data-status")));
			if (chromium.driver.findElement(By.id("problem")).isDisplayed()) {
				refused++;
				assertThat(Duration.ofNanos(System.nanoTime() - back))
					.as("runs refused for too long: %s", chromium.text("problem"))
					.isLessThan(Duration.ofSeconds(8));
				// Try again once the app's readiness says Redis takes writes again.
				Http http = new Http(this.port, Duration.ofSeconds(5));
				await().atMost(Duration.ofSeconds(8))
					.pollInterval(Duration.ofMillis(200))
					.until(() -> http.get("/actuator/health/readiness").statusCode() == 200);
				continue;
			}
			status = chromium.waitForEnd(Duration.ofSeconds(30));
			if (!"DONE".equals(status) && Duration.ofNanos(System.nanoTime() - back).compareTo(RECOVERY) < 0) {
				// A pooled connection that has not reconnected yet rejects commands at
				// once; each reconnects within lab's capped back-off.
				refused++;
				continue;
			}
			break;
		}
		assertThat(status).isEqualTo("DONE");
		System.out.printf("[browser] %d runs refused after Redis came back%n", refused);
		Duration recovered = Duration.ofNanos(System.nanoTime() - back);
		System.out.printf("[browser] Redis back after %d ms down: a run from the page was DONE %d ms later%n",
				Duration.ofNanos(back - killed).toMillis(), recovered.toMillis());
		assertThat(recovered).isLessThan(RECOVERY.plusSeconds(5));
		chromium.waitFor(Duration.ofSeconds(10), () -> !chromium.driver.findElement(By.id("banner")).isDisplayed());

		// The run Redis lost ended while it was down, and its end was recorded once it
		// came back: the list in Redis has it too, so every instance's page shows it,
		// beside the run made since.
		By killedRow = By.cssSelector("#history tbody tr[data-id='" + killedRun + "']");
		chromium.waitFor(Duration.ofSeconds(10), () -> {
			chromium.driver.findElement(By.id("refresh-history")).click();
			return chromium.driver.findElements(killedRow).stream().anyMatch((row) -> row.getText().contains("FAILED"));
		});
		assertThat(chromium.tableRows("#history")).hasSizeGreaterThanOrEqualTo(2);
	}

}
