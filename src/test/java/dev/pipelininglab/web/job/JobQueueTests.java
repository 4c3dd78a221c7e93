package dev.pipelininglab.web.job;

import java.net.http.HttpResponse;
import java.time.Duration;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.web.JobsOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code lab.jobs.queue-capacity} is a queue for the one limit, not a second limit: with
 * every run slot taken a job waits in it (QUEUED), in turn with GET runs, first come
 * first served; past it a job is turned away; a queued job cancelled never starts.
 */
@TestPropertySource(
		properties = { "lab.admission.max-concurrent=1", "lab.admission.max-wait=200ms", "lab.jobs.queue-capacity=1" })
class JobQueueTests extends JobsOnTestRedis {

	/**
	 * 100 SETs a second for 1,000 s: holds its slot, and leaves the cores to the test.
	 */
	private static final String SLOW_PACED = """
			{"operation": "set", "mode": "pipelined", "count": 100000, "batchSize": 10, "rate": 100}""";

	@Test
	void aJobWaitsForTheSlotInTurnAndOnePastTheQueueIsTurnedAway() throws Exception {
		String running = JsonPath.read(http().postJson("/runs", SLOW_PACED).body(), "$.id");
		await().atMost(Duration.ofSeconds(10)).until(() -> status(running).equals("RUNNING"));

		HttpResponse<String> queued = http().postJson("/runs", SLOW_PACED);
		assertThat(queued.statusCode()).isEqualTo(202);
		String waiting = JsonPath.read(queued.body(), "$.id");
		HttpResponse<String> full = http().postJson("/runs", SLOW_PACED);
		assertThat(full.statusCode()).isEqualTo(429);
		assertThat(JsonPath.<String>read(full.body(), "$.detail")).contains("lab.jobs.queue-capacity");
		// A GET run queues behind both and gives up after max-wait; the job stays queued.
		assertThat(http().get("/pipeset/10").statusCode()).isEqualTo(429);
		assertThat(status(waiting)).isEqualTo("QUEUED");

		http().send("DELETE", "/runs/" + running);
		await().atMost(Duration.ofSeconds(10)).until(() -> status(waiting).equals("RUNNING"));
		http().send("DELETE", "/runs/" + waiting);
		await().atMost(Duration.ofSeconds(10)).until(() -> status(waiting).equals("CANCELLED"));
	}

	@Test
	void aQueuedJobCancelledNeverStartsAndGivesUpItsPlace() throws Exception {
		String running = JsonPath.read(http().postJson("/runs", SLOW_PACED).body(), "$.id");
		String waiting = JsonPath.read(http().postJson("/runs", SLOW_PACED).body(), "$.id");
		assertThat(status(waiting)).isEqualTo("QUEUED");

		http().send("DELETE", "/runs/" + waiting);
		await().atMost(Duration.ofSeconds(10)).until(() -> status(waiting).equals("CANCELLED"));
		assertThat(JsonPath.<Integer>read(http().get("/runs/" + waiting).body(), "$.progress.batchesTotal"))
			.as("never started")
			.isZero();

		// Its place in the queue is free again.
		HttpResponse<String> next = http().postJson("/runs", SLOW_PACED);
		assertThat(next.statusCode()).isEqualTo(202);
		http().send("DELETE", "/runs/" + JsonPath.<String>read(next.body(), "$.id"));
		http().send("DELETE", "/runs/" + running);
	}

	private String status(String id) {
		return JsonPath.read(http().get("/runs/" + id).body(), "$.status");
	}

}
