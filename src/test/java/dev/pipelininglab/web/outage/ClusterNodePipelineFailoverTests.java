package dev.pipelininglab.web.outage;

import java.time.Duration;
import java.util.Set;

import com.jayway.jsonpath.DocumentContext;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.BackgroundRun;
import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnOwnRedis;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A master of a cluster of the test's own dies in the middle of a pipelined-by-node run:
 * the run either finishes with every key written and verified, or answers a 503 problem
 * that accounts for every command of the batches it sent (acknowledged, refused or
 * unconfirmed), never a 200 that lost writes. Once the replica has taken over, the next
 * run by node writes every key again.
 */
@SpringBootTest(properties = "spring.data.redis.timeout=3s")
@OwnRedis(RedisTopology.CLUSTER)
@SlowTest
class ClusterNodePipelineFailoverTests extends MockMvcOnOwnRedis {

	private static final Logger log = LoggerFactory.getLogger(ClusterNodePipelineFailoverTests.class);

	private static final int COUNT = 60_000;

	private static final int BATCH = 1000;

	private static final String RUN = "/compare/set/%d?batchSize=" + BATCH + "&variants=pipelined-by-node";

	@Autowired
	ClusterRedis cluster;

	@Autowired
	StringRedisTemplate redis;

	@Test
	void aMasterDyingMidRunEndsInExactCountsOrAProblemThatAccountsForEveryCommand() throws Exception {
		BackgroundRun run = BackgroundRun.start(this.mvc, RUN.formatted(COUNT));
		// Keys are sent in order, so once this one exists the timed pass is a quarter
		// through.
		String quarter = this.keys.key(COUNT / 4);
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> Boolean.TRUE.equals(this.redis.hasKey(quarter)));
		RedisServerProcess dead = this.cluster.nodes().get(0);
		Outages.kill(dead);
		MockHttpServletResponse answer = run.answer(Duration.ofSeconds(60));
		DocumentContext body = json(answer);
		log.info("A master killed during a pipelined-by-node run of {}: {} {}", COUNT, answer.getStatus(),
				answer.getContentAsString());

		if (answer.getStatus() == 200) {
			assertThat(body.read("$.results[0].written", Long.class)).isEqualTo(COUNT);
			assertThat(body.read("$.results[0].verified", Long.class)).isEqualTo(COUNT);
		}
		else {
			assertThat(answer.getStatus()).isEqualTo(503);
			assertThat(body.read("$.type", String.class)).isIn(TYPES + "redis-node-unreachable",
					TYPES + "redis-unavailable", TYPES + "redis-timeout", TYPES + "redis-cluster-down");
			long batches = body.read("$.batchesCompleted", Long.class);
			long accounted = body.read("$.acknowledged", Long.class) + body.read("$.rejected", Long.class)
					+ body.read("$.unconfirmed", Long.class);
			// The batches done, and the one that failed when any of its commands had gone
			// out.
			assertThat(accounted).isIn(Set.of(batches * BATCH, (batches + 1) * BATCH));
			assertThat(body.read("$.acknowledged", Long.class)).isGreaterThanOrEqualTo(batches * BATCH);
		}

		this.cluster.awaitHealthy(Duration.ofSeconds(30));
		// The app's client follows the promotion on its next periodic refresh.
		await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			DocumentContext after = json(send(RUN.formatted(10_000), 200));
			assertThat(after.read("$.results[0].written", Long.class)).isEqualTo(10_000);
			assertThat(after.read("$.results[0].verified", Long.class)).isEqualTo(10_000);
		});
	}

}
