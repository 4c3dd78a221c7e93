package dev.pipelininglab.web.outage;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnOwnRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A cluster outage is news, not a flood: a route no request uses any more (here an
 * {@code rtt=2} route, with its latency relays and its own topology refresh) is closed
 * after its idle time instead of reconnecting and logging through the outage, so ten
 * seconds with a master and its replica gone log a handful of lines and no stack trace.
 */
@SpringBootTest(properties = { "spring.data.redis.timeout=3s", "lab.pipeline.route-idle-timeout=1s" })
@OwnRedis(RedisTopology.CLUSTER)
@ExtendWith(OutputCaptureExtension.class)
@SlowTest
class ClusterOutageLogTests extends MockMvcOnOwnRedis {

	/**
	 * An observation window, not a wait for a condition: the outage's first ten seconds.
	 */
	private static final Duration OUTAGE = Duration.ofSeconds(10);

	@Autowired
	ClusterRedis cluster;

	@Test
	void tenSecondsOfAClusterOutageLogAFewLinesAndNoStackTrace(CapturedOutput output) throws Exception {
		awaitAnswers(this.cluster, "/pipeset/1000");
		send("/pipeset/1000?rtt=2", 200);
		send("/loopset/10?rtt=2", 200);

		int from = output.getAll().length();
		RedisServerProcess master = this.cluster.nodes().get(0);
		RedisServerProcess replica = this.cluster.nodes().get(3);
		Outages.kill(master);
		Outages.kill(replica);
		long start = System.nanoTime();
		await().pollDelay(OUTAGE).atMost(OUTAGE.plusSeconds(1)).until(() -> true);
		long millis = (System.nanoTime() - start) / 1_000_000;
		List<String> lines = Arrays.stream(output.getAll().substring(from).split("\n"))
			.filter((line) -> !line.isBlank())
			.toList();
		List<String> stackLines = lines.stream()
			.filter((line) -> line.startsWith("\tat ") || line.startsWith("Caused by") || line.startsWith("\t..."))
			.toList();
		System.out.println("[outage-log] " + millis + " ms of cluster outage: " + lines.size() + " lines, "
				+ stackLines.size() + " stack-trace lines");
		lines.stream().limit(400).forEach((line) -> System.out.println("[outage-log] | " + line));
		assertThat(stackLines).as("stack-trace lines").isEmpty();
		assertThat(lines).as("log lines in %d ms", millis).hasSizeLessThanOrEqualTo(40);
	}

}
