package dev.pipelininglab.reliability;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

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

	private static String[] withRedis(String... properties) {
		StandaloneRedis redis = RedisTestServers.standalone();
		List<String> all = new java.util.ArrayList<>(List.of(properties));
		all.add("spring.data.redis.host=" + redis.host());
		all.add("spring.data.redis.port=" + redis.port());
		return all.toArray(new String[0]);
	}

}
