package dev.pipelininglab.web.topology;

import java.time.Duration;

import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With manual flushing on a cluster, a command for a node whose connection is still being
 * established can stay buffered (lettuce issues 1111, 2420). Right after start-up no
 * pooled connection has node connections yet, so every first pipeline is exposed. A
 * stranded command would fail its batch after the (short) timeout with a 503; every first
 * request must complete instead. Its own application context (the timeout makes it one),
 * so these really are the first requests on their connections.
 */
@SlowTest
@SpringBootTest(properties = { "spring.data.redis.timeout=2s", "lab.pipeline.flush-policy=flush-on-close",
		"spring.data.redis.lettuce.read-from=replica-preferred" })
@SharedRedis(RedisTopology.CLUSTER)
@AutoConfigureMockMvc
class ClusterFirstRequestTests {

	/**
	 * Generous: the first request also pays for the JIT, the pools and every connection;
	 * a hang fails on status.
	 */
	private static final Duration FIRST_REQUEST_BOUND = Duration.ofSeconds(10);

	@Autowired
	MockMvc mvc;

	@Autowired
	ClusterRedis cluster;

	@Test
	void firstPipelinesAfterStartUpCompleteWithManualFlushing() throws Exception {
		this.cluster.flushAll();
		// First pipeline of the default (flush-on-close) route: writes to every master.
		firstRequest("/pipeset/5000", "$.verified", 5000);
		// First reads: replica connections (READONLY) on top.
		firstRequest("/pipeget/5000", "$.hits", 5000);
		// A route of its own, so fresh pooled connections, flushed every 1000 commands.
		firstRequest("/pipeset/5000?flushPolicy=buffered-1000", "$.verified", 5000);
		// Lettuce's async API on its own connection, auto-flush off for good.
		firstRequest("/compare/get/5000?variants=async", "$.results[0].hits", 5000);
		// One pipeline per master, on manually flushed node connections of its own.
		firstRequest("/compare/get/5000?variants=pipelined-by-node", "$.results[0].hits", 5000);
	}

	private void firstRequest(String uri, String path, int expected) throws Exception {
		long start = System.nanoTime();
		this.mvc.perform(get(uri)).andExpect(status().isOk()).andExpect(jsonPath(path).value(expected));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as(uri).isLessThan(FIRST_REQUEST_BOUND);
	}

}
