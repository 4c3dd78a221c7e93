package dev.pipelininglab.web.stop;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.TestLettuce;
import dev.pipelininglab.web.AppOnTestRedis;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A GET run ends with its caller: when the HTTP client hangs up (a {@code curl
 * --max-time}, a closed browser tab), the run stops between commands within about a
 * second, its run slot is free again, and the log says so once. Over real HTTP, since
 * only a real socket can be hung up.
 */
@ExtendWith(OutputCaptureExtension.class)
class CallerHangsUpTests extends AppOnTestRedis {

	@Test
	void aRunWhoseCallerHangsUpStopsWithinTwoSecondsAndFreesItsSlot(CapturedOutput output) throws Exception {
		flushRedis();
		RedisServerProcess redis = RedisTestServers.standalone().process();
		long setsBefore = NodeStats.calls(redis, "SET");
		// Minutes of SETs one round trip at a time: only a stop ends it in this test.
		try (Socket caller = new Socket("127.0.0.1", this.port);
				StatefulRedisConnection<String, String> admin = TestLettuce.client()
					.connect(RedisURI.create(redis.host(), redis.port()))) {
			OutputStream out = caller.getOutputStream();
			out.write("GET /loopset/3000000?batchSize=1000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			// The timed pass writes its keys in order (the warm-up's are others): key 100
			// there means it is under way.
			await().atMost(Duration.ofSeconds(30)).until(() -> admin.sync().exists("pipelining-lab:key:100") == 1);
		}
		// Hung up. Within two seconds the server sees no more SETs from it.
		AtomicLong last = new AtomicLong(-1);
		await().atMost(Duration.ofSeconds(2))
			.pollInterval(Duration.ofMillis(150))
			.until(() -> last.getAndSet(NodeStats.calls(redis, "SET")) == last.get());
		await().atMost(Duration.ofSeconds(5))
			.until(() -> JsonPath.<Integer>read(http().get("/actuator/health/runs").body(),
					"$.components.runSlots.details.inUse") == 0);
		await().atMost(Duration.ofSeconds(5)).until(() -> output.getOut().contains("its caller hung up"));
		assertThat(output.getOut().lines().filter((line) -> line.contains("its caller hung up")))
			.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
			.contains("Stopped GET /loopset/3000000 between commands after");
		assertThat(NodeStats.calls(redis, "SET") - setsBefore).as("SETs sent").isLessThan(3_000_000);
		// What it wrote before it stopped still gets its expiry, once the answer is out.
		try (StatefulRedisConnection<String, String> admin = TestLettuce.client()
			.connect(RedisURI.create(redis.host(), redis.port()))) {
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(
						() -> assertThat(admin.sync().ttl("pipelining-lab:key:0")).as("TTL of key 0").isPositive());
		}
	}

}
