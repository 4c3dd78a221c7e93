package dev.pipelininglab.reliability;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.sun.management.OperatingSystemMXBean;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.Http;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The app beyond loopback ({@code server.address=0.0.0.0}, every interface): with
 * {@code spring.security.user.*} every endpoint but the health probes asks for HTTP Basic
 * and answers 401 problem+json without it; with neither credentials nor
 * {@code lab.security.open=true} it does not start, and says why. The tests bind every
 * interface but talk to 127.0.0.1 only. On loopback nothing is asked
 * ({@link SecurityDefaultsTests}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SlowTest
class ListenerSecurityTests {

	private static final String USER = "lab";

	private static final String PASSWORD = "s3cret-for-tests";

	private RunningApp app;

	@BeforeAll
	void startOnEveryInterfaceWithCredentials() {
		this.app = RunningApp.start(withRedis("server.address=0.0.0.0", "spring.security.user.name=" + USER,
				"spring.security.user.password=" + PASSWORD));
	}

	@AfterAll
	void stop() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void withoutCredentialsARunAnswers401ProblemWithWwwAuthenticateBasic() {
		for (Http client : List.of(this.app.http(), this.app.http().withBasic(USER, "not-the-password"),
				this.app.http().withBasic("someone", PASSWORD))) {
			HttpResponse<String> response = client.get("/pipeset/10");
			assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
			assertThat(response.headers().firstValue("WWW-Authenticate"))
				.hasValueSatisfying((challenge) -> assertThat(challenge).startsWith("Basic realm=\"pipelining-lab\""));
			assertThat(response.headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
			assertThat(JsonPath.<String>read(response.body(), "$.type"))
				.isEqualTo("urn:pipelining-lab:problem:credentials-required");
			assertThat(JsonPath.<Integer>read(response.body(), "$.status")).isEqualTo(401);
			assertThat(JsonPath.<String>read(response.body(), "$.instance")).isEqualTo("/pipeset/10");
			assertThat(response.body()).doesNotContain(PASSWORD);
		}
		for (String path : List.of("/", "/keys", "/actuator/prometheus", "/actuator/health/redis-writes",
				"/v3/api-docs", "/runs/nothing", "/no-such-page")) {
			assertThat(this.app.get(path).statusCode()).as(path).isEqualTo(401);
		}
		assertThat(this.app.send("DELETE", "/keys").statusCode()).isEqualTo(401);
	}

	@Test
	void withTheCredentialsARunAnswers200() {
		HttpResponse<String> response = this.app.http().withBasic(USER, PASSWORD).get("/pipeset/10");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(JsonPath.<Integer>read(response.body(), "$.verified")).isEqualTo(10);
		assertThat(response.headers().firstValue("Set-Cookie")).as("no session: every request carries them").isEmpty();
		assertThat(this.app.http().withBasic(USER, PASSWORD).get("/").statusCode()).isEqualTo(200);
	}

	@Test
	void theHealthProbesAnswerAlikeWithNoWrongOrRightCredentials() {
		for (Http client : List.of(this.app.http(), this.app.http().withBasic(USER, "not-the-password"),
				this.app.http().withBasic("someone", PASSWORD), this.app.http().withBasic(USER, PASSWORD))) {
			for (String probe : List.of("/actuator/health/liveness", "/actuator/health/readiness",
					"/actuator/health")) {
				HttpResponse<String> answer = client.get(probe);
				assertThat(answer.statusCode()).as(probe).isEqualTo(200);
				assertThat(answer.body()).as(probe).isEqualTo(this.app.get(probe).body());
				assertThat(answer.headers().firstValue("WWW-Authenticate")).as(probe).isEmpty();
			}
		}
	}

	/**
	 * CSRF stays the lab's own request guard: the page's POST (same Origin) and curl's
	 * DELETE go through with credentials, another site's POST does not, credentials or
	 * not; the job's event stream (an async dispatch) runs to its end.
	 */
	@Test
	void thePagesPostAndCurlsDeleteWorkWithCredentialsAndTheCrossSiteGuardStays() {
		Http lab = this.app.http().withBasic(USER, PASSWORD);
		String origin = "http://127.0.0.1:" + lab.uri("/").getPort();
		HttpResponse<String> started = lab.send(lab.request("/runs")
			.header("Content-Type", "application/json")
			.header("Origin", origin)
			.header("Sec-Fetch-Site", "same-origin")
			.POST(HttpRequest.BodyPublishers
				.ofString("{\"operation\":\"set\",\"mode\":\"pipelined\",\"count\":1000}")));
		assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
		String location = started.headers().firstValue("Location").orElseThrow();
		HttpResponse<String> events = lab.get(location + "/events", "text/event-stream");
		assertThat(events.statusCode()).isEqualTo(200);
		assertThat(events.body()).contains("\"status\":\"DONE\"");

		HttpResponse<String> foreign = lab.send(lab.request("/runs")
			.header("Content-Type", "application/json")
			.header("Origin", "https://elsewhere.example")
			.POST(HttpRequest.BodyPublishers.ofString("{\"operation\":\"set\",\"mode\":\"pipelined\",\"count\":10}")));
		assertThat(foreign.statusCode()).isEqualTo(403);
		assertThat(JsonPath.<String>read(foreign.body(), "$.type"))
			.isEqualTo("urn:pipelining-lab:problem:cross-site-request");

		assertThat(lab.send("DELETE", "/keys").statusCode()).isEqualTo(200);
	}

	/**
	 * Wrong credentials cost the app next to nothing (no bcrypt per request, which took
	 * about 80 ms of CPU each), and once an address has sent 20 within a minute its
	 * further wrong ones are 429 at once, with Retry-After; the right credentials still
	 * get 200 from it, and the probes answer it as anyone. An app of its own, so that the
	 * other tests' address is not blocked.
	 */
	@Test
	void wrongCredentialsCostLittleAndAfterTwentyInAMinuteAre429WhileTheRightOnesStillGet200() {
		try (RunningApp app = RunningApp.start(withRedis("server.address=0.0.0.0", "spring.security.user.name=" + USER,
				"spring.security.user.password=" + PASSWORD))) {
			Http wrong = app.http().withBasic(USER, "not-the-password");
			Http right = app.http().withBasic(USER, PASSWORD);
			assertThat(right.get("/actuator/info").statusCode()).isEqualTo(200);
			Cost unasked = cost(() -> {
				for (int i = 0; i < 200; i++) {
					assertThat(app.get("/pipeset/10").statusCode()).isEqualTo(401);
				}
			});
			List<HttpResponse<String>> answers = new ArrayList<>();
			Cost wrongOnes = cost(() -> {
				for (int i = 0; i < 200; i++) {
					answers.add(wrong.get("/pipeset/10"));
				}
			});
			String figures = "200 wrong: " + wrongOnes + "; 200 without credentials: " + unasked;
			System.out.println("[credentials] " + figures);
			// A bcrypt each would take 16 s of CPU, the first 20 alone 1.6 s: wrong
			// credentials
			// cost about what none do, the filters and the problem written.
			assertThat(wrongOnes.serverMillis()).as(figures).isLessThan(2 * unasked.serverMillis() + 200);
			assertThat(wrongOnes.processMillis()).as(figures).isLessThan(3000);
			assertThat(wrongOnes.wallMillis()).as(figures).isLessThan(5000);
			assertThat(answers.subList(0, 20)).allSatisfy((answer) -> assertThat(answer.statusCode()).isEqualTo(401));
			assertThat(answers.subList(20, 200)).allSatisfy((answer) -> {
				assertThat(answer.statusCode()).as(answer.body()).isEqualTo(429);
				assertThat(answer.headers().firstValue("Retry-After").map(Integer::parseInt))
					.hasValueSatisfying((seconds) -> assertThat(seconds).isBetween(1, 60));
				assertThat(answer.headers().firstValue("Content-Type"))
					.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
				assertThat(JsonPath.<String>read(answer.body(), "$.type"))
					.isEqualTo("urn:pipelining-lab:problem:too-many-failed-logins");
				assertThat(answer.body()).doesNotContain(PASSWORD);
			});
			HttpResponse<String> run = right.get("/pipeset/10");
			assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
			assertThat(JsonPath.<Integer>read(run.body(), "$.verified")).isEqualTo(10);
			assertThat(app.get("/pipeset/10").statusCode()).as("no credentials: asked for them").isEqualTo(401);
			assertThat(wrong.get("/actuator/health").statusCode()).isEqualTo(200);
		}
	}

	/**
	 * A run GET an {@code <img>} on another site's page sends: no Origin, its Referer.
	 */
	@Test
	void aRunWithAForeignRefererIs403AndWithoutOneItRuns() {
		Http lab = this.app.http().withBasic(USER, PASSWORD);
		HttpResponse<String> foreign = lab
			.send(lab.request("/pipeset/1000").header("Referer", "http://evil.example/page.html").GET());
		assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(403);
		assertThat(JsonPath.<String>read(foreign.body(), "$.type"))
			.isEqualTo("urn:pipelining-lab:problem:cross-site-request");
		HttpResponse<String> own = lab.send(lab.request("/pipeset/1000")
			.header("Referer", "http://127.0.0.1:" + lab.uri("/").getPort() + "/?run=abc")
			.GET());
		assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
		HttpResponse<String> none = lab.get("/pipeset/1000");
		assertThat(none.statusCode()).as(none.body()).isEqualTo(200);
		assertThat(JsonPath.<Integer>read(none.body(), "$.verified")).isEqualTo(1000);
	}

	@Test
	void beyondLoopbackWithNeitherCredentialsNorOpenItRefusesToStartAndSaysWhy() {
		for (List<String> given : List.<List<String>>of(List.of(), List.of("spring.security.user.name=lab"),
				List.of("spring.security.user.name=lab", "spring.security.user.password="))) {
			List<String> properties = new java.util.ArrayList<>(given);
			properties.add("server.address=0.0.0.0");
			assertThatThrownBy(() -> RunningApp.start(withRedis(properties.toArray(new String[0])))).as("%s", given)
				.rootCause()
				.hasMessageContaining("listen on 0.0.0.0, beyond loopback, without credentials")
				.hasMessageContaining("spring.security.user.password")
				.hasMessageContaining("lab.security.open=true");
		}
	}

	@Test
	void beyondLoopbackWithLabSecurityOpenNothingIsAskedAndNoSecurityFilterExists() {
		try (RunningApp open = RunningApp.start(withRedis("server.address=0.0.0.0", "lab.security.open=true"))) {
			assertThat(open.get("/pipeset/10").statusCode()).isEqualTo(200);
			assertThat(open.context().getBeansOfType(SecurityFilterChain.class)).isEmpty();
			assertThat(open.context().containsBean("springSecurityFilterChain")).isFalse();
		}
	}

	/**
	 * The CPU the connector's threads (acceptor, poller, workers) and the whole process
	 * (the test's client too) spent on some requests, and their time.
	 */
	private static Cost cost(Runnable requests) {
		OperatingSystemMXBean process = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
		long processBefore = process.getProcessCpuTime();
		Map<Long, Long> serverBefore = serverThreadsCpu();
		long start = System.nanoTime();
		requests.run();
		long wall = System.nanoTime() - start;
		long server = serverThreadsCpu().entrySet()
			.stream()
			.mapToLong((thread) -> thread.getValue() - serverBefore.getOrDefault(thread.getKey(), 0L))
			.sum();
		return new Cost(server / 1e6, (process.getProcessCpuTime() - processBefore) / 1e6, wall / 1e6);
	}

	private record Cost(double serverMillis, double processMillis, double wallMillis) {

		@Override
		public String toString() {
			return "%.0f ms of Tomcat's threads' CPU, %.0f ms of the process's, %.0f ms".formatted(this.serverMillis,
					this.processMillis, this.wallMillis);
		}

	}

	/** CPU nanoseconds by thread id of the connector's threads. */
	private static Map<Long, Long> serverThreadsCpu() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		Map<Long, Long> cpu = new HashMap<>();
		for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
			if (thread != null && thread.getThreadName().startsWith("http-nio-")) {
				cpu.put(thread.getThreadId(), threads.getThreadCpuTime(thread.getThreadId()));
			}
		}
		return cpu;
	}

	private static String[] withRedis(String... properties) {
		StandaloneRedis redis = RedisTestServers.standalone();
		List<String> all = new java.util.ArrayList<>(List.of(properties));
		all.add("spring.data.redis.host=" + redis.host());
		all.add("spring.data.redis.port=" + redis.port());
		return all.toArray(new String[0]);
	}

}
