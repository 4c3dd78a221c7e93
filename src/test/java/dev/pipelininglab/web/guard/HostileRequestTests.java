package dev.pipelininglab.web.guard;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.RawHttp;
import dev.pipelininglab.web.AppOnTestRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests a client gets wrong in ways Tomcat notices before Spring MVC does, and
 * requests from where the app must not take orders, on the real server: each is a 4xx
 * problem+json, none logs an ERROR or a stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class HostileRequestTests extends AppOnTestRedis {

	@org.springframework.beans.factory.annotation.Autowired
	org.springframework.data.redis.core.StringRedisTemplate redis;

	@org.springframework.beans.factory.annotation.Autowired
	dev.pipelininglab.redis.KeySpace keys;

	@ParameterizedTest
	@ValueSource(strings = { "/pipeping/1?batchSize=%ZZ", "/pipeping/1?flushPolicy=%FF",
			"/pipeping/1?flushPolicy=%C0%AF", "/pipeping/1?%ZZ=1", "/pipeping/1?foo=%E0%A4", "/compare/set/10?rtt=%",
			"/runs?limit=%ZZ", "/runs/abc?x=%G0", "/actuator/health?x=%ZZ", "/?x=%ZZ" })
	void malformedQueryEncodingIsA400ProblemWithoutAStackTrace(String target, CapturedOutput output) {
		RawHttp answer = RawHttp.send(this.port, "GET", target);
		assertMalformed(answer, target);
		assertQuietLog(output);
	}

	@Test
	void requestsTomcatRefusesAreProblemsToo(CapturedOutput output) {
		assertMalformed(RawHttp.send(this.port, "GET", "/pipe%ZZ/1"), "bad path encoding");
		assertMalformed(RawHttp.send(this.port, "GET", "/pipeping/1?x=" + "a".repeat(20_000)), "long URL");
		assertMalformed(RawHttp.send(this.port, "GET", "/pipeping/1", "X-Long: " + "a".repeat(20_000)), "long header");
		assertQuietLog(output);
	}

	@Test
	void traceIsA405ProblemListingTheMethodsThePathTakes() {
		RawHttp run = RawHttp.send(this.port, "TRACE", "/pipeping/1");
		assertProblem(run, 405, "TRACE /pipeping/1");
		assertThat(run.header("Allow")).as(run.toString()).contains("GET").doesNotContain("PUT", "DELETE", "POST");
		RawHttp runs = RawHttp.send(this.port, "TRACE", "/runs");
		assertProblem(runs, 405, "TRACE /runs");
		assertThat(runs.header("Allow")).as(runs.toString()).contains("GET", "POST").doesNotContain("PUT", "DELETE");
	}

	/**
	 * Spring MVC's own refusals are Boot's problem details
	 * ({@code spring.mvc.problemdetails.enabled}): the lab's advice adds its own answers
	 * without taking Boot's handler's place.
	 */
	@Test
	void springMvcsOwnRefusalsAreAnsweredByBootsProblemDetailsHandler(
			@org.springframework.beans.factory.annotation.Autowired org.springframework.context.ApplicationContext context) {
		assertThat(context
			.getBeansOfType(org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler.class)
			.values()).singleElement()
			.extracting((handler) -> handler.getClass().getSimpleName())
			.isEqualTo("ProblemDetailsExceptionHandler");
		RawHttp put = RawHttp.send(this.port, "PUT", "/pipeping/1");
		assertProblem(put, 405, "PUT /pipeping/1");
		assertThat(put.header("Allow")).as(put.toString()).contains("GET").doesNotContain("PUT");
	}

	/**
	 * Every endpoint the lab answers itself names a parameter it does not take, those
	 * without any parameter too: {@code DELETE /keys?pattern=*} must not look as if it
	 * deleted by a pattern.
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			DELETE | /keys?pattern=*          | pattern
			GET    | /?bogus=1                | bogus
			GET    | /actuator/health?bogus=1 | bogus
			GET    | /v3/api-docs?bogus=1     | bogus
			POST   | /runs?limit=5            | limit
			GET    | /runs/abc?bogus=1        | bogus
			""")
	void anUnknownParameterOnAnyOwnedEndpointIsA400NamingIt(String method, String target, String parameter) {
		RawHttp answer = RawHttp.send(this.port, method, target, "Accept: application/json",
				"Content-Type: application/json");
		assertProblem(answer, 400, method + " " + target);
		assertThat(JsonPath.<String>read(answer.body(), "$.parameter")).isEqualTo(parameter);
	}

	/**
	 * The answer's format is settled before the run: an Accept no result format meets is
	 * a 406 problem and writes nothing, and an unreadable Accept is one too (text/html
	 * alone gets the run's page: RunPageTests).
	 */
	@ParameterizedTest
	@ValueSource(strings = { "image/png", "*/*;q=x", "application/xml", "application/xhtml+xml" })
	void anAnswerThatCannotBeGivenIsRefusedBeforeAnyKeyIsWritten(String accept) {
		this.redis.delete(this.keys.key(0));
		RawHttp answer = RawHttp.send(this.port, "GET", "/pipeset/7", "Accept: " + accept);
		assertProblem(answer, 406, "Accept: " + accept);
		assertThat(this.redis.hasKey(this.keys.key(0))).as("a key written before the 406").isFalse();
	}

	/** Problems are problem+json whatever format the client asked the results in. */
	@ParameterizedTest
	@ValueSource(strings = { "text/plain", "text/csv", "text/markdown", "text/html" })
	void aBadRequestIsProblemJsonEvenWhenTextWasAsked(String accept) {
		RawHttp answer = RawHttp.send(this.port, "GET", "/pipeset/abc", "Accept: " + accept);
		assertProblem(answer, 400, "Accept: " + accept);
	}

	/**
	 * A body is bounded before it is parsed: a declared length over the limit is a 413 (a
	 * chunked one too, next test), and a comparison names a bounded number of variants.
	 */
	@Test
	void bodiesAndListsAreBoundedBeforeTheyAreParsed() {
		String huge = "{\"operation\":\"set\",\"count\":10,\"variants\":[" + "\"loop\",".repeat(20_000) + "\"loop\"]}";
		java.net.http.HttpResponse<String> tooLarge = http().postJson("/runs", huge);
		assertThat(tooLarge.statusCode()).isEqualTo(413);
		assertThat(tooLarge.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		String many = "{\"operation\":\"set\",\"count\":10,\"variants\":[" + "\"loop\",".repeat(40) + "\"loop\"]}";
		java.net.http.HttpResponse<String> tooMany = http().postJson("/runs", many);
		assertThat(tooMany.statusCode()).as(tooMany.body()).isEqualTo(400);
		assertThat(JsonPath.<String>read(tooMany.body(), "$.parameter")).isEqualTo("variants");
	}

	/**
	 * A chunked body meets the limit a declared one does: of a 100 KiB body only 20 KiB
	 * are sent (the limit is 16), and the 413 comes without the rest, on a connection
	 * then closed, not one kept open to read (swallow) the rest first.
	 */
	@Test
	void aChunkedBodyPastTheLimitIs413AtOnceAndTheRestIsNeverRead() throws IOException {
		byte[] body = ("{\"operation\":\"set\",\"count\":10,\"variants\":[" + "\"loop\",".repeat(100 * 1024 / 7))
			.getBytes(StandardCharsets.US_ASCII);
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(15_000);
			OutputStream out = socket.getOutputStream();
			out.write(("POST /runs HTTP/1.1\r\nHost: 127.0.0.1:" + this.port + "\r\nContent-Type: application/json\r\n"
					+ "Transfer-Encoding: chunked\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			for (int offset = 0; offset < 20 * 1024; offset += 1024) {
				out.write("400\r\n".getBytes(StandardCharsets.US_ASCII));
				out.write(body, offset, 1024);
				out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
			}
			out.flush();
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
			assertThat(in.readLine()).startsWith("HTTP/1.1 413");
			StringBuilder rest = new StringBuilder();
			try {
				for (int read = in.read(); read >= 0; read = in.read()) {
					rest.append((char) read);
				}
			}
			catch (SocketException reset) {
				// Closed with unread bytes in its buffer, the app's side resets: closed
				// too.
			}
			assertThat(rest.toString()).contains("application/problem+json", "\"status\":413",
					"lab.limits.max-body-bytes");
		}
	}

	/**
	 * The cross-site guard decides on the path the app routes: no encoding or path
	 * parameter makes a run look like a read, and another port of the same host is
	 * another site. The lab's own page (same-origin) still runs.
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			/%70ipeset/1       | cross-site | Origin: http://evil.example
			/pipeset;x=1/1     | cross-site | Origin: http://evil.example
			/compare;a/ping/1  | cross-site | Origin: http://evil.example
			/listinpu%74/1     | cross-site | Origin: http://evil.example
			/pip%65ping/1      | same-site  | Origin: http://127.0.0.1:1
			/pipeping/1        | same-site  | X-No-Origin: 1
			""")
	void aRunFromAnotherSiteIsRefusedHoweverItsPathIsWritten(String target, String site, String origin) {
		RawHttp answer = RawHttp.send(this.port, "GET", target, "Sec-Fetch-Site: " + site, origin);
		assertProblem(answer, 403, site + " " + target);
		RawHttp own = RawHttp.send(this.port, "GET", "/pipeping/1", "Sec-Fetch-Site: same-origin",
				"Origin: http://127.0.0.1:" + this.port, "Host: 127.0.0.1:" + this.port);
		assertThat(own.status()).as(own.toString()).isEqualTo(200);
	}

	@Test
	void thePagesPermalinksStillOpen() {
		for (String target : new String[] { "/?run=abc", "/?a=abc&b=def" }) {
			RawHttp answer = RawHttp.send(this.port, "GET", target, "Accept: text/html");
			assertThat(answer.status()).as(target + ": " + answer).isEqualTo(200);
		}
	}

	@Test
	void actuatorErrorsHaveAProblemBody() {
		assertProblem(RawHttp.send(this.port, "GET", "/actuator/metrics/nonexistent"), 404, "unknown metric");
		assertProblem(RawHttp.send(this.port, "GET", "/error"), 404, "the error page itself");
	}

	@Test
	void aForeignHostIsRefused() {
		for (String host : new String[] { "evil.example", "evil.example:8080", "localhost.evil.example",
				"127.0.0.1.nip.io" }) {
			RawHttp answer = RawHttp.send(this.port, "GET", "/pipeping/1", "Host: " + host, "Origin: http://" + host);
			assertProblem(answer, 403, host);
			assertThat(JsonPath.<String>read(answer.body(), "$.type"))
				.isEqualTo("urn:pipelining-lab:problem:host-not-allowed");
			assertThat(RawHttp.send(this.port, "GET", "/actuator/health", "Host: " + host).status()).isEqualTo(403);
		}
		assertThat(RawHttp.send(this.port, "GET", "/pipeping/1", "Host: localhost:" + this.port).status())
			.isEqualTo(200);
		assertThat(RawHttp.send(this.port, "GET", "/pipeping/1", "Host: [::1]:" + this.port).status()).isEqualTo(200);
	}

	@Test
	void runsAndDeletesFromAnotherSiteAreRefused() {
		String self = "http://127.0.0.1:" + this.port;
		for (String[] request : new String[][] { { "GET", "/pipeping/1", "Origin: http://evil.example" },
				{ "GET", "/compare/set/10", "Origin: null" }, { "GET", "/pipeset/1", "Sec-Fetch-Site: cross-site" },
				{ "GET", "/pipeset/1", "Origin: http://127.0.0.1:1" }, { "DELETE", "/keys", "Origin: https://a.b" },
				{ "DELETE", "/keys", "Sec-Fetch-Site: cross-site" }, { "POST", "/runs", "Origin: http://evil" },
				// What an <img> on another site's plain-HTTP page sends: its page as
				// Referer.
				{ "GET", "/pipeset/1", "Referer: http://evil.example/page.html" },
				{ "GET", "/pipeset/1", "Referer: http://127.0.0.1:1/" }, { "DELETE", "/keys", "Referer: https://a.b/" },
				{ "GET", "/pipeset/1", "Referer: http://[" } }) {
			RawHttp answer = RawHttp.send(this.port, request[0], request[1], request[2]);
			assertProblem(answer, 403, String.join(" ", request));
			assertThat(JsonPath.<String>read(answer.body(), "$.type"))
				.isEqualTo("urn:pipelining-lab:problem:cross-site-request");
		}
		// The page itself, Swagger UI (same origin), curl and API clients (no Origin).
		assertThat(RawHttp.send(this.port, "GET", "/pipeping/1", "Origin: " + self, "Sec-Fetch-Site: same-origin")
			.status()).isEqualTo(200);
		assertThat(RawHttp.send(this.port, "GET", "/pipeping/1").status()).isEqualTo(200);
		assertThat(RawHttp.send(this.port, "DELETE", "/keys", "Origin: " + self).status()).isEqualTo(200);
		assertThat(RawHttp.send(this.port, "GET", "/pipeping/1", "Referer: " + self + "/?run=abc").status())
			.isEqualTo(200);
		// Reads are not runs: another site may look at health.
		assertThat(RawHttp.send(this.port, "GET", "/actuator/health", "Origin: http://evil.example").status())
			.isEqualTo(200);
	}

	private static void assertMalformed(RawHttp answer, String what) {
		assertProblem(answer, 400, what);
		assertThat(JsonPath.<String>read(answer.body(), "$.type")).as(what)
			.isEqualTo("urn:pipelining-lab:problem:malformed-request");
	}

	private static void assertProblem(RawHttp answer, int status, String what) {
		assertThat(answer.status()).as(what + ": " + answer).isEqualTo(status);
		assertThat(answer.header("Content-Type")).as(what + ": " + answer).startsWith("application/problem+json");
		assertThat(JsonPath.<Integer>read(answer.body(), "$.status")).as(what).isEqualTo(status);
		assertThat(answer.body()).as(what).doesNotContain("Exception", "\tat ", "<html");
	}

	private static void assertQuietLog(CapturedOutput output) {
		assertThat(output.getAll()).doesNotContain(" ERROR ", "InvalidParameterException", "\tat ");
	}

}
