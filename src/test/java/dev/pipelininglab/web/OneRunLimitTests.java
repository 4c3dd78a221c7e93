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
 * GET runs and jobs share one limit, {@code lab.admission.max-concurrent}: while jobs
 * hold every run slot a GET run answers 429 with Retry-After after its wait, while GET
 * runs hold them a job is turned away (no queue), and health's {@code runSlots} counts
 * both.
 */
@TestPropertySource(properties = { "lab.admission.max-concurrent=2", "lab.admission.max-wait=1s" })
class OneRunLimitTests extends JobsOnTestRedis {

	private static final String ENDLESS_LOOP = """
			{"operation": "set", "mode": "loop", "count": 10000000}""";

	@Test
	void whileJobsHoldEverySlotAGetRunAnswers429() throws Exception {
		String first = JsonPath.read(http().postJson("/runs", ENDLESS_LOOP).body(), "$.id");
		String second = JsonPath.read(http().postJson("/runs", ENDLESS_LOOP).body(), "$.id");
		await().atMost(Duration.ofSeconds(10)).until(() -> slotsInUse() == 2);

		HttpResponse<String> busy = http().get("/pipeset/10");

		assertThat(busy.statusCode()).isEqualTo(429);
		assertThat(busy.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(JsonPath.<String>read(busy.body(), "$.type")).isEqualTo("urn:pipelining-lab:problem:too-busy");
		assertThat(busy.headers().firstValue("Retry-After")).isPresent();
		http().send("DELETE", "/runs/" + first);
		http().send("DELETE", "/runs/" + second);
		await().atMost(Duration.ofSeconds(10)).until(() -> slotsInUse() == 0);
		assertThat(http().get("/pipeset/10").statusCode()).isEqualTo(200);
	}

	@Test
	void whileGetRunsHoldEverySlotAJobIsTurnedAway() throws Exception {
		try (Socket one = longGetRun(); Socket two = longGetRun()) {
			await().atMost(Duration.ofSeconds(10)).until(() -> slotsInUse() == 2);

			HttpResponse<String> full = http().postJson("/runs", ENDLESS_LOOP);

			assertThat(full.statusCode()).isEqualTo(429);
			assertThat(JsonPath.<String>read(full.body(), "$.detail")).contains("lab.admission.max-concurrent");
			assertThat(full.headers().firstValue("Retry-After")).isPresent();
		}
		// Both callers hung up: their runs stop and give their slots back.
		await().atMost(Duration.ofSeconds(10)).until(() -> slotsInUse() == 0);
	}

	private Socket longGetRun() throws Exception {
		Socket caller = new Socket("127.0.0.1", this.port);
		OutputStream out = caller.getOutputStream();
		out.write("GET /loopset/10000000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		out.flush();
		return caller;
	}

	private int slotsInUse() {
		return JsonPath.read(http().get("/actuator/health/runs").body(), "$.components.runSlots.details.inUse");
	}

}
