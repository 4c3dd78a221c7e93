package dev.pipelininglab.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
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
class ForeignCommandsTests extends MockMvcOnTestRedis {

	@Test
	void aRunOnAQuietRedisIsNotFlaggedWhateverItsVariant() throws Exception {
		String compare = okBody("/compare/set/5000?batchSize=500&variants=loop,pipelined,multi-key,script,async,"
				+ "jedis-loop,jedis-pipelined,jedis-multi-key,jedis-script&repeat=2");
		List<String> variants = JsonPath.read(compare, "$.results[*].variant");
		List<Integer> commands = JsonPath.read(compare, "$.results[*].server.commands");
		System.out.println("[foreign] quiet server commands per variant: " + variants + " " + commands);
		assertThat(variants).hasSize(9);
		assertThat(JsonPath.<List<Object>>read(compare, "$.results[*].foreignCommands")).isEmpty();
		for (String op : List.of("get", "rpop", "incr", "ping", "hset")) {
			String answer = okBody("/compare/" + op + "/3000?batchSize=300&variants=loop,pipelined,multi-key,script");
			assertThat(JsonPath.<List<Object>>read(answer, "$.results[*].foreignCommands")).as(op).isEmpty();
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
		String record = accepted;
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		while (!List.of("DONE", "FAILED", "CANCELLED").contains(JsonPath.<String>read(record, "$.status"))
				&& System.nanoTime() < deadline) {
			Thread.sleep(100);
			record = okBody("/runs/" + id);
		}
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
			String answer = okBody("/loopset/20000");
			long foreign = JsonPath.<Number>read(answer, "$.foreignCommands").longValue();
			long commands = JsonPath.<Number>read(answer, "$.server.commands").longValue();
			System.out.println("[foreign] flooded loop: server.commands " + commands + ", foreignCommands " + foreign
					+ ", flood sent " + flood.sent.get());
			assertThat(foreign).isGreaterThan(1000).isLessThanOrEqualTo(commands - 20000);

			String text = text("/loopset/20000", MediaType.TEXT_PLAIN);
			assertThat(text).contains("foreign commands").contains("another client");
			String csv = text("/loopset/20000", ResultTextConverter.CSV);
			assertThat(csv.lines().findFirst().orElseThrow()).contains("foreign commands");
			assertThat(csv.lines().skip(1).findFirst().orElseThrow()).matches(".*,[0-9]{4,},.*");
			String markdown = text("/loopset/20000", ResultTextConverter.MARKDOWN);
			assertThat(markdown).contains("| foreign commands |").contains("another client");
		}
		// Quiet again: the same run is not flagged, and the tables carry no such column.
		String quiet = okBody("/loopset/20000");
		assertThat(JsonPath.<List<Object>>read(quiet, "$..foreignCommands")).isEmpty();
		assertThat(text("/loopset/20000", MediaType.TEXT_PLAIN)).doesNotContain("foreign").doesNotContain("another");
	}

	private String text(String path, MediaType type) throws Exception {
		return this.mvc.perform(get(path).accept(type))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

	/**
	 * Another client on a raw socket of its own: PINGs in bursts of 100, as fast as the
	 * server answers them, until closed.
	 */
	static final class Flood implements AutoCloseable {

		private static final int BURST = 100;

		final AtomicLong sent = new AtomicLong();

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final Socket socket;

		private final Thread thread;

		Flood(String host, int port) throws IOException {
			this.socket = new Socket(host, port);
			this.thread = new Thread(this::hammer, "foreign-flood");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		private void hammer() {
			byte[] burst = "PING\r\n".repeat(BURST).getBytes(StandardCharsets.US_ASCII);
			byte[] replies = new byte[BURST * "+PONG\r\n".length()];
			try {
				OutputStream out = this.socket.getOutputStream();
				InputStream in = this.socket.getInputStream();
				while (this.running.get()) {
					out.write(burst);
					out.flush();
					int read = 0;
					while (read < replies.length) {
						int n = in.read(replies, read, replies.length - read);
						if (n < 0) {
							return;
						}
						read += n;
					}
					this.sent.addAndGet(BURST);
				}
			}
			catch (IOException ex) {
				// closed
			}
		}

		void awaitStarted() throws InterruptedException {
			while (this.sent.get() < 10 * BURST) {
				Thread.sleep(5);
			}
		}

		@Override
		public void close() throws Exception {
			this.running.set(false);
			this.thread.join(5000);
			this.socket.close();
		}

	}

}
