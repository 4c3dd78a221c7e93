package dev.pipelininglab.web.page;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;

import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.AppOnTestRedis;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.util.HtmlUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run URL asked as a browser asks (an {@code Accept} that prefers text/html) answers
 * the page of that run, made in the same request: its summary first, its figures as its
 * record holds them, and links to the record and the lab's page. curl, Postman and JSON
 * clients get JSON as before, with the record's place in {@code Content-Location}, and a
 * problem is problem+json whoever asked.
 */
@SlowTest
class RunPageTests extends AppOnTestRedis {

	/** Chromium's, for a typed address. */
	static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
			+ "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";

	@Autowired
	JsonMapper json;

	@Test
	void aBrowsersAcceptOnAPipelineAndAComparisonGetsThePageWithTheFiguresOfTheRunsRecord() throws Exception {
		for (String target : List.of("/pipeset/10000", "/compare/set/10000")) {
			HttpResponse<String> page = http().get(target, BROWSER);
			assertThat(page.statusCode()).as(target + ": " + page.body()).isEqualTo(200);
			assertThat(page.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
			String record = page.headers().firstValue("Content-Location").orElseThrow();
			assertThat(record).matches("/runs/[0-9a-f-]{36}");
			String body = page.body();
			assertThat(body).startsWith("<!doctype html>")
				.contains("<a id=\"record\" href=\"" + record + "\"",
						"<a id=\"open\" href=\"/?run=" + record.substring("/runs/".length()) + "\"");

			// The record link answers JSON to the same browser: the page's figures are
			// the record's.
			HttpResponse<String> followed = http().get(record, BROWSER);
			assertThat(followed.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
			JsonNode run = this.json.readTree(followed.body());
			assertThat(run.path("status").asString()).isEqualTo("DONE");
			assertThat(run.path("results")).isNotEmpty();
			for (JsonNode result : run.path("results")) {
				assertThat(body).contains(">" + HtmlUtils.htmlEscape(result.path("variant").asString(), "UTF-8") + "<",
						">" + String.format(Locale.ROOT, "%,d", Math.round(result.path("opsPerSecond").asDouble()))
								+ "<");
			}
			// The answer first: the summary (a comparison's, word for word) above the
			// table.
			int summary = body.indexOf("<p id=\"summary\">");
			assertThat(summary).isPositive().isLessThan(body.indexOf("<table"));
			if (target.startsWith("/compare")) {
				assertThat(body)
					.contains("<p id=\"summary\">" + HtmlUtils.htmlEscape(run.path("summary").asString(), "UTF-8"));
				assertThat(body).contains("<title>compare SET, 10,000 commands on standalone");
			}
			else {
				assertThat(body).contains("<title>SET pipelined-buffered-500, 10,000 commands on standalone",
						">10,000 verified<");
			}
		}
		HttpResponse<String> htmlAlone = http().get("/loopping/100", "text/html");
		assertThat(htmlAlone.statusCode()).isEqualTo(200);
		assertThat(htmlAlone.body()).contains("<title>PING loop, 100 commands on standalone", ">100 PONG<");
	}

	@Test
	void curlPostmanAndJsonClientsGetJsonWithTheRecordsPlace() throws Exception {
		for (String[] client : new String[][] { { "curl/8.5.0", "*/*" }, { "PostmanRuntime/7.39.0", "*/*" },
				{ "pipelining-lab-test", "application/json" } }) {
			HttpResponse<String> answer = http()
				.send(http().request("/pipeset/1000").header("User-Agent", client[0]).header("Accept", client[1]));
			assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
			assertThat(answer.headers().firstValue("Content-Type").orElseThrow()).as(client[0])
				.startsWith("application/json");
			assertThat(this.json.readTree(answer.body()).path("verified").asLong()).isEqualTo(1000);
			String record = answer.headers().firstValue("Content-Location").orElseThrow();
			assertThat(this.json.readTree(http().get(record, null).body()).at("/results/0/verified").asLong())
				.isEqualTo(1000);
		}
	}

	@Test
	void aProblemIsProblemJsonForABrowserToo() {
		for (String target : List.of("/pipeset/0", "/compare/set/abc", "/sweep/set/10?batchSizes=0")) {
			HttpResponse<String> answer = http().get(target, BROWSER);
			assertThat(answer.statusCode()).as(target).isEqualTo(400);
			assertThat(answer.headers().firstValue("Content-Type").orElseThrow()).as(target)
				.startsWith("application/problem+json");
		}
	}

}
