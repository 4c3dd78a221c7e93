package dev.pipelininglab.reliability;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis with ACLs: no default user, and one user {@code lab} that may only touch keys
 * under the demo prefix and may not run dangerous commands (FLUSHALL, KEYS, CONFIG,
 * MONITOR...). The app connects through Boot's standard
 * {@code spring.data.redis.username/password} and every endpoint works, which also proves
 * by construction that it needs nothing outside its prefix. With wrong or missing
 * credentials it answers a clear 503 problem and reports health DOWN. The password never
 * appears in any answer or log line.
 */
@ExtendWith(OutputCaptureExtension.class)
@SlowTest
class RedisAuthTests {

	private static final String PASSWORD = "pw-" + UUID.randomUUID();

	private static final String WRONG = "wrong-" + UUID.randomUUID();

	private static final String AUTH_FAILED = "urn:pipelining-lab:problem:redis-auth-failed";

	@TempDir
	static Path dir;

	static RedisServerProcess redis;

	@BeforeAll
	static void aclRedis() {
		int port = RedisServerProcess.freePort();
		redis = RedisServerProcess.builder(RedisTestServers.binary(), port, dir)
			.args("--user", "default", "off", "--user", "lab", "on", ">" + PASSWORD, "~pipelining-lab:*", "+@all",
					"-@dangerous", "+info")
			.start();
	}

	@AfterAll
	static void stopRedis() {
		redis.stop();
	}

	@Test
	void anAclUserLimitedToThePrefixRunsEveryEndpoint(CapturedOutput output) {
		List<String> answers;
		try (RunningApp app = RunningApp.start(redisProperties("lab", PASSWORD))) {
			for (String path : List.of("/pipeset/2000", "/loopset/100", "/pipeget/2000", "/loopget/100",
					"/listinput/500", "/piperpop/100", "/looprpop/100", "/pipeping/100", "/loopping/100",
					"/compare/set/500", "/compare/get/500", "/compare/rpop/500", "/compare/ping/100",
					"/sweep/set/500?batchSizes=10,100", "/pipeset/100?flushPolicy=buffered-10&ttl=60",
					"/actuator/health")) {
				HttpResponse<String> response = app.get(path);
				assertThat(response.statusCode()).as(path + " " + response.body()).isEqualTo(200);
			}
			assertThat(JsonPath.<Integer>read(app.get("/pipeset/1000").body(), "$.verified")).isEqualTo(1000);
			assertThat(app.send("DELETE", "/keys").statusCode()).isEqualTo(200);
			answers = app.answers();
		}
		assertThat(answers).noneMatch((answer) -> answer.contains(PASSWORD));
		assertThat(output.getAll()).contains("Tomcat started on port").doesNotContain(PASSWORD);
	}

	@Test
	void aPlainRequirepassServerWorksWithThePasswordAlone(CapturedOutput output) {
		String password = "rp-" + UUID.randomUUID();
		RedisServerProcess plain = RedisServerProcess
			.builder(RedisTestServers.binary(), RedisServerProcess.freePort(), dir.resolve("requirepass"))
			.args("--requirepass", password)
			.start();
		List<String> answers = new ArrayList<>();
		// Boot's own property, and the REDIS_PASSWORD alias that every topology's
		// settings read (here without any profile: the standalone default).
		try {
			for (String given : List.of("spring.data.redis.password=" + password, "REDIS_PASSWORD=" + password)) {
				try (RunningApp app = RunningApp.start("spring.data.redis.host=127.0.0.1",
						"spring.data.redis.port=" + plain.port(), given)) {
					assertThat(JsonPath.<Integer>read(app.get("/pipeset/1000").body(), "$.verified")).as(given)
						.isEqualTo(1000);
					assertThat(JsonPath.<Integer>read(app.get("/loopget/100").body(), "$.hits")).isEqualTo(100);
					assertThat(app.get("/actuator/health").statusCode()).isEqualTo(200);
					answers.addAll(app.answers());
				}
			}
		}
		finally {
			plain.stop();
		}
		assertThat(answers).noneMatch((answer) -> answer.contains(password));
		assertThat(output.getAll()).doesNotContain(password);
	}

	@Test
	void wrongOrMissingCredentialsAreAClear503AndHealthDown(CapturedOutput output) {
		for (String[] credentials : new String[][] { { "lab", WRONG }, { "", "" }, { "nobody", WRONG } }) {
			List<String> answers;
			try (RunningApp app = RunningApp.start(redisProperties(credentials[0], credentials[1]))) {
				int saidSo = 0;
				for (String path : List.of("/pipeset/10", "/loopget/10", "/compare/get/10", "/pipeping/10")) {
					HttpResponse<String> response = app.get(path);
					assertThat(response.statusCode()).as(path).isEqualTo(503);
					assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
					String type = JsonPath.read(response.body(), "$.type");
					// Lettuce sometimes loses the reason: when Redis's refusal closes the
					// connection before Lettuce has looked at it, the failure reads
					// "RedisHandshakeHandler not registered" (about 1 request in 25 here)
					// and can only be answered as "unavailable".
					assertThat(type).isIn(AUTH_FAILED, "urn:pipelining-lab:problem:redis-unavailable");
					if (type.equals(AUTH_FAILED)) {
						assertThat(JsonPath.<String>read(response.body(), "$.detail"))
							.contains("spring.data.redis.password")
							.containsAnyOf("WRONGPASS", "NOAUTH");
						saidSo++;
					}
				}
				assertThat(saidSo).as("answers that named the refused credentials").isPositive();
				assertThat(app.get("/actuator/health").statusCode()).isEqualTo(503);
				// Health names the refusal too, not an outage: Redis answered, it said
				// no.
				String writes = app.get("/actuator/health/redis-writes").body();
				assertThat(JsonPath.<String>read(writes, "$.components.redis.details.cause")).as(writes)
					.isEqualTo("AUTH_FAILED");
				assertThat(JsonPath.<String>read(writes, "$.components.redis.details.summary"))
					.contains("refuses the app's credentials")
					.containsAnyOf("WRONGPASS", "NOAUTH");
				answers = app.answers();
			}
			System.out.println("[reliability] credentials " + String.join("/", credentials[0], "***") + ": "
					+ answers.get(0).replace(WRONG, "***"));
			assertThat(answers).noneMatch((answer) -> answer.contains(PASSWORD) || answer.contains(WRONG))
				.noneMatch((answer) -> answer.contains("Exception") || answer.contains("\tat "));
		}
		assertThat(output.getAll()).doesNotContain(PASSWORD)
			.doesNotContain(WRONG)
			.contains("refuses the app's credentials")
			.doesNotContain("No Redis answers at");
	}

	private static String[] redisProperties(String username, String password) {
		return new String[] { "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
				"spring.data.redis.username=" + username, "spring.data.redis.password=" + password };
	}

}
