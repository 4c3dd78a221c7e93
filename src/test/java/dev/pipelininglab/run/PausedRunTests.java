package dev.pipelininglab.run;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import dev.pipelininglab.redis.RouteCache;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run whose process is stopped in the middle of its timed pass says so in its answer,
 * with how long it was stopped, instead of passing the pause off as Redis's time.
 */
@SpringBootTest(properties = "lab.local-redis.enabled=false")
@SlowTest
class PausedRunTests {

	private static final long STOPPED_MILLIS = 1_000;

	@Autowired
	RunService runs;

	@Autowired
	RouteCache connections;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		RedisTestServers.standalone().addTo(registry);
	}

	@Test
	void aProcessStoppedDuringThePassIsNamedInTheNote() throws Exception {
		// About 3 s of round trips through a 2 ms relay, so the stop lands inside the
		// pass.
		RunSpec spec = new RunSpec(Operation.PING, Mode.LOOP, this.connections.defaultPolicy(), 1_500, 1, 0, null,
				Duration.ofMillis(2), 1, Specs.plain(), RunSpec.Senders.DEFAULT, null);
		AtomicReference<Process> stopper = new AtomicReference<>();
		RunResult result = this.runs.run(spec, new RunObserver() {
			@Override
			public void batchDone() {
				if (stopper.get() == null) {
					stopper.set(stopThisProcessFor(STOPPED_MILLIS));
				}
			}
		});
		assertThat(stopper.get().waitFor()).isZero();

		assertThat(result.notes().note()).contains("This process was not running for");
		double paused = Double.parseDouble(result.notes().note().replaceAll(".*not running for ([0-9.]+) ms.*", "$1"));
		assertThat(paused).isBetween(STOPPED_MILLIS * 0.8, result.timing().elapsedMillis());
	}

	/**
	 * Another process stops this one and lets it go again, as a debugger or VM host
	 * would.
	 */
	private static Process stopThisProcessFor(long millis) {
		long pid = ProcessHandle.current().pid();
		try {
			return new ProcessBuilder("sh", "-c",
					"sleep 0.2; kill -STOP " + pid + "; sleep " + (millis / 1000.0) + "; kill -CONT " + pid)
				.inheritIO()
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
