package dev.pipelininglab.web;

import java.time.Duration;

import dev.pipelininglab.job.RunExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;

import static org.awaitility.Awaitility.await;

/**
 * The whole app on a real port for tests that start jobs ({@code POST /runs}): each test
 * starts on an empty Redis, and ends only once none of its jobs is still running, so the
 * next one has every slot.
 */
public abstract class JobsOnTestRedis extends AppOnTestRedis {

	@Autowired
	protected RunExecutor jobs;

	@BeforeEach
	void startEmpty() {
		flushRedis();
	}

	@AfterEach
	void noJobLeftRunning() {
		await().atMost(Duration.ofSeconds(60)).until(() -> this.jobs.active() == 0);
	}

}
