package dev.pipelininglab.web.topology;

import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;

/**
 * Counting the connections a run used costs a warm cluster request no wait: a cluster
 * client holds one connection per master, which is not a pool grown by earlier runs, so
 * the count needs no pause into the server's next second (it once cost every cluster
 * request up to a second).
 */
@SlowTest
@SpringBootTest(properties = "logging.level.dev.pipelininglab.redis.ServerCounters=debug")
@SharedRedis(RedisTopology.CLUSTER)
@ExtendWith(OutputCaptureExtension.class)
class ClusterConnectionCountTests extends MockMvcOnTestRedis {

	@Test
	void warmClusterRunsCountTheirConnectionsWithoutWaiting(CapturedOutput output) throws Exception {
		for (String uri : new String[] { "/pipeping/10", "/pipeset/1000", "/loopset/100" }) {
			okBody(uri);
		}
		int before = output.getAll().length();
		for (int i = 0; i < 3; i++) {
			okBody("/pipeping/10", jsonPath("$.connections.used").isNumber());
			okBody("/pipeset/1000", jsonPath("$.connections.used").value(3));
			okBody("/loopset/100", jsonPath("$.connections.used").value(3),
					jsonPath("$.connections.countedBy").value(org.hamcrest.Matchers.startsWith("CLIENT LIST")));
		}
		assertThat(output.getAll().substring(before)).doesNotContain("Waiting into the server's next second");
		// For the record only (a bound would flake on a loaded machine): what a warm
		// request costs end to end now.
		long start = System.nanoTime();
		for (int i = 0; i < 10; i++) {
			okBody("/pipeping/10");
		}
		System.out.printf("[cluster] warm /pipeping/10 through MockMvc: %.1f ms a request%n",
				(System.nanoTime() - start) / 10 / 1e6);
	}

}
