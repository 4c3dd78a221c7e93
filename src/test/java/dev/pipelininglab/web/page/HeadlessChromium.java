package dev.pipelininglab.web.page;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import javax.imageio.ImageIO;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
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
 * Debian's {@code chromium} and {@code chromedriver}, headless, with a fresh profile and
 * a download directory of its own ({@code -Dlab.test.chromium=...} and
 * {@code -Dlab.test.chromedriver=...}, or {@code LAB_CHROMIUM} and
 * {@code LAB_CHROMEDRIVER}, point elsewhere); nothing is downloaded. Skipped where they
 * are missing, unless {@code LAB_REQUIRE_BROWSER=true}, where that fails.
 */
final class HeadlessChromium implements AutoCloseable {

	private static final Path CHROMIUM = setting("lab.test.chromium", "LAB_CHROMIUM", "/usr/bin/chromium");

	private static final Path CHROMEDRIVER = setting("lab.test.chromedriver", "LAB_CHROMEDRIVER",
			"/usr/bin/chromedriver");

	static final Path SCREENSHOTS = Path.of("target", "screenshots");

	final WebDriver driver;

	final Path downloads;

	private final Path profile;

	private HeadlessChromium(WebDriver driver, Path profile, Path downloads) {
		this.driver = driver;
		this.profile = profile;
		this.downloads = downloads;
	}

	/**
	 * For {@code @BeforeEach}: each test reports itself skipped, with the reason, where
	 * the browser is missing.
	 */
	static void assumeAvailable() {
		boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
		if (!present && "true".equalsIgnoreCase(System.getenv("LAB_REQUIRE_BROWSER"))) {
			fail("LAB_REQUIRE_BROWSER is set but " + CHROMIUM + " or " + CHROMEDRIVER + " is missing");
		}
		assumeTrue(present, CHROMIUM + " and " + CHROMEDRIVER + " are needed (Debian: apt-get install chromium"
				+ " chromium-driver)");
	}

	private static HeadlessChromium shared;

	/**
	 * The test JVM's one browser, started on first use and quit as the JVM exits, at
	 * {@code width} by {@code height}, on a blank page (null where the browser is
	 * missing). Starting Chromium and its driver costs seconds of the two cores; each
	 * browser test class takes this one rather than a new one, and {@link #freshFor}
	 * gives it the empty storage a new profile would have.
	 */
	static synchronized HeadlessChromium shared(int width, int height) throws Exception {
		if (shared != null && !shared.answers()) {
			// A browser that died under an earlier class is not handed to the next.
			try {
				shared.close();
			}
			catch (Exception ex) {
				// Already gone.
			}
			shared = null;
		}
		if (shared == null) {
			shared = start(width, height);
			if (shared == null) {
				return null;
			}
			HeadlessChromium browser = shared;
			Runtime.getRuntime().addShutdownHook(new Thread(() -> {
				try {
					browser.close();
				}
				catch (Exception ex) {
					// The JVM is exiting: chromedriver ends its browser with it.
				}
			}, "quit-chromium"));
		}
		shared.driver.get("about:blank");
		shared.driver.manage().window().setSize(new Dimension(width, height));
		return shared;
	}

	private boolean answers() {
		try {
			this.driver.getWindowHandle();
			return true;
		}
		catch (WebDriverException ex) {
			return false;
		}
	}

	/**
	 * What a class's fresh profile gave it: no page open and nothing stored by the app's
	 * origin ({@code baseUrl}, as the page remembers "More settings" in its local
	 * storage). For a class's first test; its later tests share what earlier ones left,
	 * as they did with a browser of their own.
	 */
	void freshFor(String baseUrl) {
		this.driver.get("about:blank");
		((ChromeDriver) this.driver).executeCdpCommand("Storage.clearDataForOrigin",
				Map.of("origin", baseUrl, "storageTypes", "all"));
	}

	/** Null where the browser is missing. */
	static HeadlessChromium start(int width, int height) throws Exception {
		if (!(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER))) {
			return null;
		}
		// Both paths given, so Selenium Manager has nothing to look up or download.
		System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
		Path profile = Files.createTempDirectory("lab-chromium-profile");
		Path downloads = Files.createTempDirectory("lab-chromium-downloads");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		// The background-networking flags keep Chromium from calling out of this closed
		// network at start-up.
		// The rest spare the two cores work no test looks at: extensions, audio, the
		// crash and hang watchers, phishing checks, translation and media routing.
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=" + width + "," + height,
				"--force-device-scale-factor=1", "--lang=en-US", "--disable-extensions", "--disable-default-apps",
				"--mute-audio", "--disable-breakpad", "--disable-hang-monitor",
				"--disable-client-side-phishing-detection", "--password-store=basic",
				"--disable-features=Translate,MediaRouter,OptimizationHints");
		options.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
				"download.prompt_for_download", false, "safebrowsing.enabled", false));
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.usingAnyFreePort()
			.build();
		ChromeDriver driver = new ChromeDriver(service, options);
		driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
		// Headless Chromium only saves downloads where it is told to over DevTools.
		driver.executeCdpCommand("Browser.setDownloadBehavior",
				Map.of("behavior", "allow", "downloadPath", downloads.toString()));
		Files.createDirectories(SCREENSHOTS);
		return new HeadlessChromium(driver, profile, downloads);
	}

	String text(String id) {
		return this.driver.findElement(By.id(id)).getText();
	}

	/** The table's cells, read again whole if the page redraws it while they are read. */
	List<List<String>> tableRows(String table) {
		for (int attempt = 1;; attempt++) {
			try {
				List<List<String>> rows = new ArrayList<>();
				for (WebElement row : this.driver.findElements(By.cssSelector(table + " tbody tr"))) {
					rows.add(row.findElements(By.tagName("td")).stream().map(WebElement::getText).toList());
				}
				return rows;
			}
			catch (StaleElementReferenceException redrawn) {
				if (attempt == 5) {
					throw redrawn;
				}
			}
		}
	}

	void setField(String id, String value) {
		WebElement field = this.driver.findElement(By.id(id));
		field.clear();
		field.sendKeys(value);
	}

	/** Picks the run form's kind: single, compare or sweep. */
	void chooseKind(String kind) {
		moreSettings();
		this.driver.findElement(By.cssSelector("input[name=kind][value=" + kind + "]")).click();
	}

	/** Opens the form's "More settings", where all but operation and count wait. */
	void moreSettings() {
		((JavascriptExecutor) this.driver).executeScript("document.getElementById('more-settings').open = true");
	}

	/**
	 * Ticks the run form's variants named and unticks the others, by clicking each box
	 * whose state differs, as a person would. The boxes' states are read in one script
	 * rather than two driver round trips a box (there are about twenty).
	 */
	void tickOnly(String... variants) {
		moreSettings();
		// Read again after the clicks, in case one box's click changes another's.
		for (int pass = 0; pass < 3; pass++) {
			@SuppressWarnings("unchecked")
			List<String> toClick = (List<String>) ((JavascriptExecutor) this.driver).executeScript("""
					return Array.from(document.querySelectorAll('input[name=variants]'))
					  .filter((box) => box.checked !== arguments[0].includes(box.getAttribute('value')))
					  .map((box) => box.getAttribute('value'));""", List.of(variants));
			if (toClick.isEmpty()) {
				return;
			}
			for (String value : toClick) {
				this.driver.findElement(By.cssSelector("input[name=variants][value='" + value + "']")).click();
			}
		}
	}

	void select(String id, String value) {
		new Select(this.driver.findElement(By.id(id))).selectByValue(value);
	}

	/**
	 * Fills fields by id and value in turn: {@code fill("operation", "get", "count",
	 * "20000")} picks {@code get} in the operation list, then types 20000 as the count.
	 */
	void fill(String... idsAndValues) {
		moreSettings();
		for (int i = 0; i + 1 < idsAndValues.length; i += 2) {
			if ("select".equals(this.driver.findElement(By.id(idsAndValues[i])).getTagName())) {
				select(idsAndValues[i], idsAndValues[i + 1]);
			}
			else {
				setField(idsAndValues[i], idsAndValues[i + 1]);
			}
		}
	}

	void waitFor(Duration atMost, BooleanSupplier condition) {
		// A table the page redraws while the condition reads it leaves stale elements:
		// read it again on the next poll.
		new WebDriverWait(this.driver, atMost).pollingEvery(Duration.ofMillis(50))
			.ignoring(StaleElementReferenceException.class)
			.until((driver) -> condition.getAsBoolean());
	}

	/**
	 * The status line's data-status once it is final (DONE also waits for the results).
	 */
	String waitForEnd(Duration atMost) {
		long started = System.nanoTime();
		awaitInThePage(atMost, """
				const status = document.getElementById('status')?.getAttribute('data-status');
				const results = document.getElementById('results');
				return ['DONE', 'FAILED', 'CANCELLED', 'LOST'].includes(status)
				  && (status !== 'DONE' || (results !== null && results.getClientRects().length > 0));""");
		// The end as the driver sees it, which the page's own look above only waited for.
		Duration left = atMost.minusNanos(System.nanoTime() - started);
		waitFor((left.compareTo(Duration.ofSeconds(2)) > 0) ? left : Duration.ofSeconds(2), () -> {
			String status = this.driver.findElement(By.id("status")).getDomAttribute("data-status");
			boolean last = List.of("DONE", "FAILED", "CANCELLED", "LOST").contains(status);
			return last && (!"DONE".equals(status) || this.driver.findElement(By.id("results")).isDisplayed());
		});
		return this.driver.findElement(By.id("status")).getDomAttribute("data-status");
	}

	/**
	 * Waits in the page itself, looking every 50 ms, until {@code condition} (the body of
	 * a script function) returns true or {@code atMost} passes; not an assertion, but a
	 * wait that costs no driver round trips while a run goes on. Returns early where the
	 * page goes away under it; the caller then looks through the driver as before.
	 */
	void awaitInThePage(Duration atMost, String condition) {
		long deadline = System.nanoTime() + atMost.toNanos();
		try {
			while (true) {
				long left = (deadline - System.nanoTime()) / 1_000_000;
				if (left <= 0) {
					return;
				}
				// Below the 10 s script time-out.
				Object met = ((JavascriptExecutor) this.driver).executeAsyncScript("""
						const done = arguments[arguments.length - 1];
						const condition = new Function(arguments[0]);
						const until = Date.now() + arguments[1];
						const look = () => {
						  let met = false;
						  try { met = condition(); } catch (e) { met = false; }
						  if (met || Date.now() >= until) { done(met); } else { setTimeout(look, 50); }
						};
						look();""", condition, Math.min(left, 8000));
				if (Boolean.TRUE.equals(met)) {
					return;
				}
			}
		}
		catch (WebDriverException pageGone) {
			// A navigation or a time-out under load: the driver's own polling takes over.
		}
	}

	/**
	 * Ends a class's use of the JVM's browser: its page goes, with any event stream to
	 * the class's app; the browser stays for the next class.
	 */
	void leave() {
		this.driver.get("about:blank");
	}

	/** Saves the window as a picture, which must be one (ImageIO reads nothing else). */
	void screenshot(Path target) throws Exception {
		File shot = ((TakesScreenshot) this.driver).getScreenshotAs(OutputType.FILE);
		Files.createDirectories(target.toAbsolutePath().getParent());
		Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
		assertThat(ImageIO.read(target.toFile())).as("%s is a picture", target).isNotNull();
	}

	@Override
	public void close() throws Exception {
		this.driver.quit();
		for (Path directory : List.of(this.profile, this.downloads)) {
			try (var files = Files.walk(directory)) {
				files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
			}
		}
	}

	private static Path setting(String property, String variable, String fallback) {
		String value = System.getProperty(property, System.getenv(variable));
		return Path.of((value != null && !value.isBlank()) ? value : fallback);
	}

}
