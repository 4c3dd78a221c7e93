package dev.pipelininglab.web;

import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GET runs and jobs share one limit, {@code lab.admission.max-concurrent}: jobs may take
 * every run slot (three here, beyond the two jobs a second limit used to allow), and
 * while they hold them a GET run answers 429 with Retry-After once it has waited
 * {@code lab.admission.max-wait} (short here) for its turn; while GET runs hold them a
 * job is turned away (no queue); health's {@code runSlots} counts both.
 */
@TestPropertySource(properties = { "lab.admission.max-concurrent=3", "lab.admission.max-wait=200ms" })
class OneRunLimitTests extends JobsOnTestRedis {

	private static final String ENDLESS_LOOP = """
			{"operation": "set", "mode": "loop", "count": 10000000}""";

	/**
	 * 100 SETs a second for 1,000 s: holds its slot, and leaves the cores to the test.
	 */
	private static final String SLOW_PACED = """
			{"operation": "set", "mode": "pipelined", "count": 100000, "batchSize": 10, "rate": 100}""";

	@Test
	void whileJobsHoldEverySlotAGetRunAnswers429AfterMaxWait() throws Exception {
		String first = JsonPath.read(http().postJson("/runs", SLOW_PACED).body(), "$.id");
		String second = JsonPath.read(http().postJson("/runs", SLOW_PACED).body(), "$.id");
		String third = JsonPath.read(http().postJson("/runs", SLOW_PACED).body(), "$.id");
		await().atMost(Duration.ofSeconds(10)).until(() -> slotsInUse() == 3);
		assertThat(maxConcurrent()).isEqualTo(3);
		assertThat(JsonPath.<Integer>read(http().get("/runs/" + first).body(), "$.environment.maxConcurrent"))
			.as("the record reports the one limit")
			.isEqualTo(3);

		long asked = System.nanoTime();
		HttpResponse<String> busy = http().get("/pipeset/10");
		Duration waited = Duration.ofNanos(System.nanoTime() - asked);

		assertThat(busy.statusCode()).isEqualTo(429);
		assertThat(busy.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(JsonPath.<String>read(busy.body(), "$.type")).isEqualTo("urn:pipelining-lab:problem:too-busy");
		assertThat(JsonPath.<String>read(busy.body(), "$.detail")).contains("lab.admission.max-wait")
			.contains("waited 200 ms");
		assertThat(busy.headers().firstValue("Retry-After")).isPresent();
		// It waited its turn, max-wait and not the 20 s default, and no second limit
		// turned it away at once.
		assertThat(waited).isBetween(Duration.ofMillis(190), Duration.ofSeconds(5));
		assertThat(slotsInUse()).isEqualTo(3);
		http().send("DELETE", "/runs/" + first);
		http().send("DELETE", "/runs/" + second);
		http().send("DELETE", "/runs/" + third);
		await().atMost(Duration.ofSeconds(10)).until(() -> slotsInUse() == 0);
		assertThat(http().get("/pipeset/10").statusCode()).isEqualTo(200);
	}

	@Test
	void whileGetRunsHoldEverySlotAJobIsTurnedAway() throws Exception {
		try (Socket one = longGetRun(); Socket two = longGetRun(); Socket three = longGetRun()) {
			await().atMost(Duration.ofSeconds(10)).until(() -> slotsInUse() == 3);

			HttpResponse<String> full = http().postJson("/runs", ENDLESS_LOOP);

			assertThat(full.statusCode()).isEqualTo(429);
			assertThat(JsonPath.<String>read(full.body(), "$.detail")).contains("lab.admission.max-concurrent");
			assertThat(full.headers().firstValue("Retry-After")).isPresent();
		}
		// The callers hung up: their runs stop and give their slots back.
		await().atMost(Duration.ofSeconds(10)).until(() -> slotsInUse() == 0);
	}

	private Socket longGetRun() throws Exception {
		Socket caller = new Socket("127.0.0.1", this.port);
		OutputStream out = caller.getOutputStream();
		out.write("GET /pipeset/100000?batchSize=10&rate=100 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
			.getBytes(StandardCharsets.US_ASCII));
		out.flush();
		return caller;
	}

	private int maxConcurrent() {
		return JsonPath.read(http().get("/actuator/health/runs").body(), "$.components.runSlots.details.maxConcurrent");
	}

	private int slotsInUse() {
		return JsonPath.read(http().get("/actuator/health/runs").body(), "$.components.runSlots.details.inUse");
	}

}
