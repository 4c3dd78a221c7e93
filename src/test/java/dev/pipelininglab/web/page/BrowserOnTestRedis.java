package dev.pipelininglab.web.page;

import dev.pipelininglab.web.AppOnTestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.Dimension;

/**
 * The whole app on a real port and the test JVM's one headless Chromium (as new to the
 * class as a fresh profile), on an emptied test Redis before each test, at the page's
 * desktop size. Browser tests extend it; they report themselves skipped, with the reason,
 * where Chromium is missing.
 */
abstract class BrowserOnTestRedis extends AppOnTestRedis {

	static final int WIDTH = 1280;

	static final int HEIGHT = 1900;

	static HeadlessChromium chromium;

	private static boolean fresh;

	@BeforeAll
	static void startBrowser() throws Exception {
		chromium = HeadlessChromium.shared(WIDTH, HEIGHT);
		fresh = false;
	}

	@AfterAll
	static void leaveBrowser() {
		if (chromium != null) {
			chromium.leave();
		}
	}

	@BeforeEach
	void startEmpty() {
		HeadlessChromium.assumeAvailable();
		flushRedis();
		if (!fresh) {
			chromium.freshFor(baseUrl());
			fresh = true;
		}
		chromium.driver.manage().window().setSize(new Dimension(WIDTH, HEIGHT));
	}

}
