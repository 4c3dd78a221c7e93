package dev.pipelininglab.web.topology;

import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Clients and connectors on 3 masters + 3 replicas: Jedis's loop and multi-key commands
 * work, its pipelines are refused the way Spring Data Redis refuses them, and Lettuce's
 * clients each reach every master.
 */
@SlowTest
@SharedRedis(RedisTopology.CLUSTER)
@TestPropertySource(properties = "spring.data.redis.lettuce.read-from=replica-preferred")
class ClusterClientsTests extends MockMvcOnTestRedis {

	@Test
	void jedisLoopsFromSeveralClientsOnACluster() throws Exception {
		okBody("/loopset/1000?connector=jedis&clients=4&batchSize=100", jsonPath("$.connector.name").value("jedis"),
				jsonPath("$.verified").value(1000), jsonPath("$.clients.count").value(4));
	}

	@Test
	void jedisPipelinesOnAClusterAreAClearBadRequest() throws Exception {
		expectBad("/pipeset/1000?connector=jedis", "connector", "Pipeline is not supported for JedisClusterConnection");
		okBody("/compare/set/1000?variants=jedis-loop,jedis-pipelined", jsonPath("$.results[0].verified").value(1000),
				jsonPath("$.skipped[0].variant").value("jedis-pipelined"));
		this.mvc.perform(get("/sweep/set/1000?connector=jedis"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("connector"));
	}

	@Test
	void jedisMultiKeyCommandsWorkWithAndWithoutAHashTag() throws Exception {
		String body = okBody(
				"/compare/set/1000?batchSize=100&variants=jedis-multi-key,jedis-multi-key-hashtag&clients=2",
				jsonPath("$.skipped.length()").value(0));
		assertThat(JsonPath.<Integer>read(body, "$.results[0].verified")).isEqualTo(1000);
		assertThat(JsonPath.<Integer>read(body, "$.results[1].verified")).isEqualTo(1000);
	}

	@Test
	void clientsSendingPipelinesByNodeAtOnceEachWriteTheirOwnRangeExactly() throws Exception {
		String body = okBody("/compare/set/3000?clients=3&batchSize=500&variants=pipelined-by-node",
				jsonPath("$.results[0].written").value(3000), jsonPath("$.results[0].verified").value(3000),
				jsonPath("$.results[0].clients.count").value(3));
		assertThat(JsonPath.<List<Integer>>read(body, "$.results[0].clients.perClient[*].items")).containsExactly(1000,
				1000, 1000);
	}

	@Test
	void eachLettucePipelineClientReachesEveryMaster() throws Exception {
		String body = okBody("/pipeset/3000?clients=3&batchSize=500", jsonPath("$.verified").value(3000));
		Map<String, Object> connections = JsonPath.read(body, "$.connections");
		// One socket per master for every pipeline connection in use.
		assertThat(((Number) connections.get("used")).intValue()).isBetween(3, 9);
	}

}
