package dev.pipelininglab.web.page;

import dev.pipelininglab.web.AppOnTestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.Dimension;

/**
 * The whole app on a real port and one headless Chromium for the class, on an emptied
 * test Redis before each test, at the page's desktop size. Browser tests extend it; they
 * report themselves skipped, with the reason, where Chromium is missing.
 */
abstract class BrowserOnTestRedis extends AppOnTestRedis {

	static final int WIDTH = 1280;

	static final int HEIGHT = 1900;

	static HeadlessChromium chromium;

	@BeforeAll
	static void startBrowser() throws Exception {
		chromium = HeadlessChromium.start(WIDTH, HEIGHT);
	}

	@AfterAll
	static void stopBrowser() throws Exception {
		if (chromium != null) {
			chromium.close();
		}
	}

	@BeforeEach
	void startEmpty() {
		HeadlessChromium.assumeAvailable();
		flushRedis();
		chromium.driver.manage().window().setSize(new Dimension(WIDTH, HEIGHT));
	}

}
