package dev.pipelininglab.web.job;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.job.RunStatus;
import dev.pipelininglab.web.JobsOnTestRedis;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code /runs} over real HTTP: start a job, follow its Server-Sent Events to the end,
 * read and cancel it; a GET run is in the same history, and cancelled the same way.
 */
class RunJobHttpTests extends JobsOnTestRedis {

	@Autowired
	JsonMapper json;

	@Test
	void eventStreamDeliversProgressAndEndsWithTheFinalRecord() throws Exception {
		HttpResponse<String> started = post("""
				{"operation": "set", "mode": "pipelined", "count": 100000, "batchSize": 250}""");
		assertThat(started.statusCode()).isEqualTo(202);
		String location = started.headers().firstValue("Location").orElseThrow();
		RunRecord accepted = this.json.readValue(started.body(), RunRecord.class);
		assertThat(location).isEqualTo("/runs/" + accepted.id());

		List<Event> events = events(location + "/events");

		assertThat(events).allSatisfy((event) -> assertThat(event.name()).isEqualTo("run"));
		List<RunRecord> records = events.stream()
			.map((event) -> this.json.readValue(event.data(), RunRecord.class))
			.toList();
		assertThat(records).extracting(RunRecord::id).containsOnly(accepted.id());
		assertThat(records).extracting((run) -> run.progress().batchesDone()).isSorted();
		assertThat(records.subList(0, records.size() - 1)).extracting(RunRecord::status)
			.doesNotContain(RunStatus.DONE, RunStatus.FAILED, RunStatus.CANCELLED);
		RunRecord last = records.get(records.size() - 1);
		assertThat(last.status()).isEqualTo(RunStatus.DONE);
		assertThat(last.progress().batchesDone()).isEqualTo(400).isEqualTo(last.progress().batchesTotal());
		assertThat(last.results()).singleElement().satisfies((result) -> {
			assertThat(result.counts().verified()).isEqualTo(100_000);
			// What held it back, stored with the record and read back typed, sentence and
			// all.
			assertThat(result.limitedBy()).isNotNull();
			assertThat(result.limitedBy().sentence()).isNotBlank();
			assertThat(result.limitedBy().evidence()).isNotNull();
		});
		// Progress came in steps, not only as the final record.
		assertThat(records).filteredOn((run) -> run.progress().batchesDone() > 0 && run.progress().batchesDone() < 400)
			.isNotEmpty();

		HttpResponse<String> read = get(location);
		assertThat(read.statusCode()).isEqualTo(200);
		assertThat(this.json.readValue(read.body(), RunRecord.class).status()).isEqualTo(RunStatus.DONE);
		assertThat(send(http().request(location).DELETE()).statusCode()).isEqualTo(409);

		// A finished run's stream is its final record, then the end.
		assertThat(events(location + "/events")).singleElement()
			.satisfies((event) -> assertThat(event.data()).contains("\"status\":\"DONE\""));
	}

	@Test
	void aGetRunIsInTheHistoryWithTheResultItAnswered() {
		HttpResponse<String> answer = get("/pipeset/2000?batchSize=100");
		assertThat(answer.statusCode()).isEqualTo(200);

		String history = get("/runs").body();
		assertThat(JsonPath.<String>read(history, "$.runs[0].kind")).isEqualTo("single");
		assertThat(JsonPath.<String>read(history, "$.runs[0].status")).isEqualTo("DONE");
		assertThat(JsonPath.<String>read(history, "$.runs[0].request.mode")).isEqualTo("pipelined");
		assertThat(JsonPath.<Object>read(history, "$.runs[0].results[0]"))
			.isEqualTo(JsonPath.<Object>read(answer.body(), "$"));
		String id = JsonPath.read(history, "$.runs[0].id");
		assertThat(JsonPath.<String>read(get("/runs/" + id).body(), "$.status")).isEqualTo("DONE");
	}

	@Test
	void aGetRunCancelledWithDeleteStopsAndAnswers409() throws Exception {
		CompletableFuture<HttpResponse<String>> answer = CompletableFuture
			.supplyAsync(() -> get("/loopset/10000000?batchSize=100"));
		String id = await().atMost(Duration.ofSeconds(30))
			.until(() -> JsonPath.<List<String>>read(get("/runs").body(), "$.runs[?(@.status == 'RUNNING')].id"),
					(running) -> !running.isEmpty())
			.get(0);

		assertThat(send(http().request("/runs/" + id).DELETE()).statusCode()).isEqualTo(202);

		HttpResponse<String> stopped = answer.get(30, TimeUnit.SECONDS);
		assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(409);
		assertThat(JsonPath.<String>read(stopped.body(), "$.type"))
			.isEqualTo("urn:pipelining-lab:problem:run-cancelled");
		assertThat(JsonPath.<String>read(get("/runs/" + id).body(), "$.status")).isEqualTo("CANCELLED");
	}

	@Test
	void cancelledRunEndsItsStreamWithCancelled() throws Exception {
		HttpResponse<String> started = post("""
				{"operation": "set", "mode": "loop", "count": 1000000, "batchSize": 100}""");
		String location = started.headers().firstValue("Location").orElseThrow();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.json.readValue(get(location).body(), RunRecord.class).progress().batchesDone() > 0);

		HttpResponse<String> cancel = send(http().request(location).DELETE());
		assertThat(cancel.statusCode()).isEqualTo(202);
		assertThat(this.json.readValue(cancel.body(), RunRecord.class).cancelRequested()).isTrue();

		List<Event> events = events(location + "/events");
		RunRecord last = this.json.readValue(events.get(events.size() - 1).data(), RunRecord.class);
		assertThat(last.status()).isEqualTo(RunStatus.CANCELLED);
		assertThat(last.progress().batchesDone()).isLessThan(last.progress().batchesTotal());
	}

	@Test
	void unknownRunHasNoStream() throws Exception {
		HttpResponse<String> response = send(http().request("/runs/0b6f4f5e-7d1c-4f43-9a55-2f1d8c3e6a10/events")
			.header("Accept", "text/event-stream"));
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
	}

	/** Reads a whole event stream, which must end by itself once the run is final. */
	private List<Event> events(String path) {
		HttpRequest request = http().request(path)
			.header("Accept", "text/event-stream")
			.timeout(Duration.ofSeconds(60))
			.build();
		HttpResponse<Stream<String>> response = http().send(request, HttpResponse.BodyHandlers.ofLines());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		List<Event> events = new ArrayList<>();
		String name = null;
		StringBuilder data = new StringBuilder();
		try (Stream<String> lines = response.body()) {
			Iterator<String> it = lines.iterator();
			while (it.hasNext()) {
				String line = it.next();
				if (line.isEmpty()) {
					if (name != null || data.length() > 0) {
						events.add(new Event(name, data.toString()));
					}
					name = null;
					data.setLength(0);
				}
				else if (line.startsWith("event:")) {
					name = line.substring(6).trim();
				}
				else if (line.startsWith("data:")) {
					data.append(line.substring(5));
				}
			}
		}
		assertThat(events).isNotEmpty();
		return events;
	}

	private HttpResponse<String> post(String body) {
		return http().postJson("/runs", body);
	}

	private HttpResponse<String> get(String path) {
		return http().get(path, "application/json");
	}

	private HttpResponse<String> send(HttpRequest.Builder request) {
		return http().send(request);
	}

	record Event(String name, String data) {
	}

}
