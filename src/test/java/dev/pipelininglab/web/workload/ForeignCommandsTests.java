package dev.pipelininglab.web.workload;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.Flood;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import dev.pipelininglab.web.text.ResultTextConverter;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A result measured while another client kept the same Redis busy says so
 * ({@code foreignCommands}, in JSON and in the text, CSV and Markdown answers); a run on
 * a quiet Redis, the lab's own INFO calls and a job's progress records included, does
 * not.
 */
@SharedRedis
@SlowTest
class ForeignCommandsTests extends MockMvcOnTestRedis {

	/**
	 * Round trips of the loop run beside the flood (in every format) and once quiet. The
	 * flood's 100 commands a millisecond come to a thousand or more beside a loop of 500,
	 * whose allowance is about 50: flagged many times over.
	 */
	private static final int LOOP = 500;

	private static final String LOOP_SET = "/loopset/" + LOOP;

	@Test
	void aRunOnAQuietRedisIsNotFlaggedWhateverItsVariant() throws Exception {
		String compare = okBody("/compare/set/5000?batchSize=500&variants=loop,pipelined,multi-key,script,async,"
				+ "jedis-loop,jedis-pipelined,jedis-multi-key,jedis-script&repeat=2");
		List<String> variants = results(compare, "variant");
		System.out.println(
				"[foreign] quiet server commands per variant: " + variants + " " + results(compare, "server.commands"));
		assertThat(variants).hasSize(9);
		assertThat(results(compare, "foreignCommands")).isEmpty();
		for (String op : List.of("get", "rpop", "incr", "ping", "hset")) {
			String answer = okBody("/compare/" + op + "/3000?batchSize=300&variants=loop,pipelined,multi-key,script");
			assertThat(results(answer, "foreignCommands")).as(op).isEmpty();
		}
	}

	@Test
	void aJobOnAQuietRedisIsNotFlaggedThoughItWritesItsProgressThere() throws Exception {
		String accepted = this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON)
			.content(
					"{\"kind\":\"compare\",\"operation\":\"set\",\"count\":20000,\"variants\":[\"loop\",\"pipelined\"]}"))
			.andExpect(status().isAccepted())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String id = JsonPath.read(accepted, "$.id");
		String record = await().atMost(Duration.ofSeconds(120))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> okBody("/runs/" + id),
					(body) -> List.of("DONE", "FAILED", "CANCELLED").contains(JsonPath.<String>read(body, "$.status")));
		assertThat(JsonPath.<String>read(record, "$.status")).isEqualTo("DONE");
		System.out
			.println("[foreign] quiet job server commands: " + JsonPath.read(record, "$.results[*].server.commands"));
		assertThat(JsonPath.<List<Object>>read(record, "$.results[*].foreignCommands")).isEmpty();
	}

	@Test
	void aRunWhileAnotherClientFloodsTheSameRedisIsFlaggedInEveryFormat() throws Exception {
		StandaloneRedis redis = RedisTestServers.standalone();
		try (Flood flood = new Flood(redis.host(), redis.port())) {
			flood.awaitStarted();
			String answer = okBody(LOOP_SET);
			long foreign = JsonPath.<Number>read(answer, "$.foreignCommands").longValue();
			long commands = JsonPath.<Number>read(answer, "$.server.commands").longValue();
			System.out.println("[foreign] flooded loop: server.commands " + commands + ", foreignCommands " + foreign
					+ ", flood sent " + flood.sent());
			assertThat(foreign).isGreaterThan(500).isLessThanOrEqualTo(commands - LOOP);

			// The terminal's short table flags it in its warning line; the column is one
			// parameter away.
			String text = text(LOOP_SET, MediaType.TEXT_PLAIN);
			assertThat(text).contains("commands beyond the run's own").contains("another client");
			assertThat(text(LOOP_SET + "?columns=all", MediaType.TEXT_PLAIN)).contains("foreign commands");
			String csv = text(LOOP_SET, ResultTextConverter.CSV);
			assertThat(csv.lines().findFirst().orElseThrow()).contains("foreign commands");
			List<String> header = List.of(csv.lines().findFirst().orElseThrow().split(","));
			String[] row = csv.lines().skip(1).findFirst().orElseThrow().split(",");
			assertThat(Long.parseLong(row[header.indexOf("foreign commands")])).isGreaterThan(500);
			String markdown = text(LOOP_SET, ResultTextConverter.MARKDOWN);
			assertThat(markdown).contains("| foreign commands |").contains("another client");
		}
		// Quiet again: the same run is not flagged, and the tables carry no such column.
		String quiet = okBody(LOOP_SET);
		assertThat(JsonPath.<List<Object>>read(quiet, "$..foreignCommands")).isEmpty();
		assertThat(text(LOOP_SET, MediaType.TEXT_PLAIN)).doesNotContain("foreign").doesNotContain("another");
	}

	private String text(String path, MediaType type) throws Exception {
		return this.mvc.perform(get(path).accept(type))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

}
