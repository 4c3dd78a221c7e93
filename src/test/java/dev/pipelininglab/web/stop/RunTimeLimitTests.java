package dev.pipelininglab.web.stop;

import java.net.http.HttpResponse;
import java.time.Duration;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.JobsOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs that cannot be stopped stop: a GET run gives its admission slot back after
 * {@code lab.limits.max-run-time} (2 s here) however long its batches are, and a job's
 * cancel takes effect between commands, not after a batch of thousands of one-second
 * round trips (or a warm-up of fifty).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "lab.limits.max-run-time=2s")
@SlowTest
class RunTimeLimitTests extends JobsOnTestRedis {

	/**
	 * Far above the 2 s limit plus a round trip: only a run that was not stopped between
	 * commands (hours at rtt=200) takes longer.
	 */
	private static final Duration STOPPED_WITHIN = Duration.ofSeconds(20);

	@Test
	void aGetRunOutlastingTheLimitIsStoppedBetweenCommandsAndFreesItsSlot() {
		long start = System.nanoTime();
		HttpResponse<String> answer = http().get("/loopping/1000000?rtt=200");
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
		assertThat(JsonPath.<String>read(answer.body(), "$.type"))
			.isEqualTo("urn:pipelining-lab:problem:run-time-exceeded");
		assertThat(JsonPath.<String>read(answer.body(), "$.detail")).contains("lab.limits.max-run-time (PT2S)");
		assertThat(took).isLessThan(STOPPED_WITHIN);
		assertThat(http().get("/pipeping/10").statusCode()).isEqualTo(200);
	}

	@Test
	void aJobsCancelTakesEffectBetweenCommands() {
		HttpResponse<String> started = http().postJson("/runs",
				"{\"operation\":\"ping\",\"mode\":\"loop\",\"count\":10000000,\"batchSize\":10000,\"rtt\":1000}");
		assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
		String id = JsonPath.read(started.body(), "$.id");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> "RUNNING".equals(JsonPath.read(http().get("/runs/" + id).body(), "$.status")));
		assertThat(http().send("DELETE", "/runs/" + id).statusCode()).isEqualTo(202);
		await().atMost(STOPPED_WITHIN)
			.until(() -> "CANCELLED".equals(JsonPath.read(http().get("/runs/" + id).body(), "$.status")));
	}

}
