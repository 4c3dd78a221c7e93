package dev.pipelininglab.web;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The page at {@code /} in a real headless Chromium: start runs from the form, watch the
 * progress bar move to 100%, see the table and the chart, and the run in the history.
 * Screenshots go to {@code target/screenshots}.
 * <p>
 * Uses Debian's {@code chromium} and {@code chromedriver}
 * ({@code -Dlab.test.chromium=...} and {@code -Dlab.test.chromedriver=...}, or
 * {@code LAB_CHROMIUM} and {@code LAB_CHROMEDRIVER}, point elsewhere); nothing is
 * downloaded. Skipped where they are missing, unless {@code LAB_REQUIRE_BROWSER=true}
 * (set by {@code .ci/run} once it has installed them), where that fails.
 */
class WebPageBrowserTests extends AppOnTestRedis {

	private static final Path CHROMIUM = setting("lab.test.chromium", "LAB_CHROMIUM", "/usr/bin/chromium");

	private static final Path CHROMEDRIVER = setting("lab.test.chromedriver", "LAB_CHROMEDRIVER",
			"/usr/bin/chromedriver");

	private static final Path SCREENSHOTS = Path.of("target", "screenshots");

	private static WebDriver browser;

	private static Path profile;

	/**
	 * Why the browser cannot run here, or null. Assumed in {@code @BeforeEach}, not here:
	 * an assumption that fails in {@code @BeforeAll} aborts the class, and Surefire then
	 * counts its tests neither as run nor as skipped.
	 */
	private static String missing;

	@BeforeAll
	static void startBrowser() throws Exception {
		boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
		if (!present && "true".equalsIgnoreCase(System.getenv("LAB_REQUIRE_BROWSER"))) {
			fail("LAB_REQUIRE_BROWSER is set but " + CHROMIUM + " or " + CHROMEDRIVER + " is missing");
		}
		if (!present) {
			missing = CHROMIUM + " and " + CHROMEDRIVER + " are needed (Debian: apt-get install chromium"
					+ " chromium-driver); missing: " + (Files.isExecutable(CHROMIUM) ? "" : CHROMIUM + " ")
					+ (Files.isExecutable(CHROMEDRIVER) ? "" : CHROMEDRIVER);
			return;
		}
		// Both paths given, so Selenium Manager has nothing to look up or download.
		System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
		profile = Files.createTempDirectory("lab-chromium-profile");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		// The background-networking flags keep Chromium from calling out of this closed
		// network at start-up.
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,1900",
				"--force-device-scale-factor=1", "--lang=en-US");
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.usingAnyFreePort()
			.build();
		browser = new ChromeDriver(service, options);
		browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
		Files.createDirectories(SCREENSHOTS);
	}

	@AfterAll
	static void stopBrowser() throws Exception {
		if (browser != null) {
			browser.quit();
		}
		if (profile != null) {
			try (var files = Files.walk(profile)) {
				files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
			}
		}
	}

	@BeforeEach
	void startEmpty() {
		assumeTrue(missing == null, missing);
		flushRedis();
	}

	@Test
	void comparisonRunsFromTheFormWithProgressTableAndBarChart() throws Exception {
		open();
		setCount(30000);
		setField("batchSize", "1000");
		for (String variant : List.of("pipelined-flush-each-command", "pipelined-buffered-500", "multi-key-hashtag",
				"script")) {
			WebElement box = browser.findElement(By.cssSelector("input[name=variants][value='" + variant + "']"));
			if (box.isSelected()) {
				box.click();
			}
		}
		browser.findElement(By.id("run-button")).click();

		Set<Integer> progress = followProgress();
		assertThat(progress).contains(100);
		assertThat(progress).as("the bar moved through values between 0 and 100, %s", progress)
			.anySatisfy((value) -> assertThat(value).isStrictlyBetween(0, 100));
		assertThat(text("status")).startsWith("DONE");
		assertThat(browser.findElement(By.id("progress")).getDomAttribute("aria-valuenow")).isEqualTo("100");

		List<List<String>> rows = tableRows("#results-table");
		assertThat(rows).extracting((row) -> row.get(0))
			.containsExactly("loop", "pipelined-flush-on-close", "multi-key", "async");
		assertThat(rows.get(0).get(5)).isEqualTo("1×");
		assertThat(rows).allSatisfy((row) -> assertThat(row.get(6)).isEqualTo("30,000 verified"));

		assertThat(chart("type")).isEqualTo("bar");
		assertThat(chart("labels")).isEqualTo("loop,pipelined-flush-on-close,multi-key,async");
		assertThat(chart("datasets")).isEqualTo("ops/s|speedup against the loop (×)");
		assertThat(paintedPixels()).as("the chart drew bars").isGreaterThan(1000);

		waitFor(() -> !tableRows("#history").isEmpty());
		assertThat(tableRows("#history").get(0)).contains("compare", "SET", "30,000", "DONE", "100%");
		screenshot("web-page-compare.png");
	}

	@Test
	void sweepShowsThroughputAgainstBatchSizeAsALine() throws Exception {
		open();
		browser.findElement(By.cssSelector("input[name=kind][value=sweep]")).click();
		new Select(browser.findElement(By.id("operation"))).selectByValue("get");
		setCount(20000);
		setField("batchSizes", "1,10,100,1000,10000");
		browser.findElement(By.id("run-button")).click();

		assertThat(followProgress()).contains(100);
		assertThat(text("status")).startsWith("DONE");
		assertThat(tableRows("#results-table")).extracting((row) -> row.get(1))
			.containsExactly("1", "10", "100", "1,000", "10,000");
		assertThat(chart("type")).isEqualTo("line");
		assertThat(chart("points")).isEqualTo("1,10,100,1000,10000");
		assertThat(paintedPixels()).isGreaterThan(200);
		screenshot("web-page-sweep.png");
	}

	@Test
	void badInputIsExplainedNextToTheForm() throws Exception {
		open();
		browser.findElement(By.cssSelector("input[name=kind][value=single]")).click();
		setCount(0);
		browser.findElement(By.id("run-button")).click();
		waitFor(() -> browser.findElement(By.id("problem")).isDisplayed());
		assertThat(text("problem")).contains("count must be between 1 and");
		assertThat(browser.findElement(By.id("count")).getDomAttribute("aria-invalid")).isEqualTo("true");
		assertThat(browser.findElement(By.id("run-button")).isEnabled()).isTrue();
	}

	private void open() {
		browser.get(baseUrl() + "/");
		// The page asks the app for its topology once its script runs: proof both scripts
		// loaded.
		waitFor(() -> text("topology").startsWith("Set up for standalone Redis"));
		assertThat(((JavascriptExecutor) browser).executeScript("return typeof Chart")).isEqualTo("function");
	}

	/**
	 * Reads the bar every 25 ms until the run is final, and returns every value it
	 * showed.
	 */
	private Set<Integer> followProgress() {
		Set<Integer> seen = new TreeSet<>();
		new WebDriverWait(browser, Duration.ofSeconds(90)).pollingEvery(Duration.ofMillis(25)).until((driver) -> {
			seen.add(Integer.parseInt(driver.findElement(By.id("progress")).getDomAttribute("aria-valuenow")));
			String status = driver.findElement(By.id("status")).getDomAttribute("data-status");
			boolean last = List.of("DONE", "FAILED", "CANCELLED").contains(status);
			// A DONE run is only fully shown once its results are.
			return last && (!"DONE".equals(status) || driver.findElement(By.id("results")).isDisplayed());
		});
		seen.add(Integer.parseInt(browser.findElement(By.id("progress")).getDomAttribute("aria-valuenow")));
		return seen;
	}

	private String chart(String what) {
		Object value = ((JavascriptExecutor) browser).executeScript("""
				const chart = Chart.getChart('chart');
				if (!chart) return null;
				switch (arguments[0]) {
				  case 'type': return chart.config.type;
				  case 'labels': return chart.data.labels.join(',');
				  case 'datasets': return chart.data.datasets.map((d) => d.label).join('|');
				  case 'points': return chart.data.datasets[0].data.map((p) => p.x).join(',');
				}""", what);
		return (value != null) ? value.toString() : null;
	}

	/**
	 * Pixels of the chart canvas that are not transparent: the chart was drawn, not only
	 * configured.
	 */
	private long paintedPixels() {
		Object count = ((JavascriptExecutor) browser).executeScript("""
				const canvas = document.getElementById('chart');
				const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
				let painted = 0;
				for (let i = 3; i < data.length; i += 4) { if (data[i] > 0) painted++; }
				return painted;""");
		return ((Number) count).longValue();
	}

	private static List<List<String>> tableRows(String table) {
		List<List<String>> rows = new ArrayList<>();
		for (WebElement row : browser.findElements(By.cssSelector(table + " tbody tr"))) {
			rows.add(row.findElements(By.tagName("td")).stream().map(WebElement::getText).toList());
		}
		return rows;
	}

	private static void setCount(long count) {
		setField("count", Long.toString(count));
	}

	private static void setField(String id, String value) {
		WebElement field = browser.findElement(By.id(id));
		field.clear();
		field.sendKeys(value);
	}

	private static String text(String id) {
		return browser.findElement(By.id(id)).getText();
	}

	private static void waitFor(java.util.function.BooleanSupplier condition) {
		new WebDriverWait(browser, Duration.ofSeconds(20)).until((driver) -> condition.getAsBoolean());
	}

	private static Path setting(String property, String variable, String fallback) {
		String value = System.getProperty(property, System.getenv(variable));
		return Path.of((value != null && !value.isBlank()) ? value : fallback);
	}

	private static void screenshot(String name) throws Exception {
		File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
		Files.copy(shot.toPath(), SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
	}

}
